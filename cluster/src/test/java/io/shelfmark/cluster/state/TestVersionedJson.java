package io.shelfmark.cluster.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestVersionedJson {
  @TempDir Path directory;
  private EmbeddedZooKeeper server;
  private CuratorFramework first;
  private CuratorFramework second;

  /** A record two writers add to: a lost update would drop one writer's name. */
  record Names(List<String> names) {
    Names with(String name) {
      List<String> more = new ArrayList<>(names);
      more.add(name);
      return new Names(more);
    }
  }

  @BeforeEach
  void setUp() throws IOException {
    server = EmbeddedZooKeeper.start(directory, 0);
    first = CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded());
    second = CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded());
  }

  @AfterEach
  void tearDown() {
    first.close();
    second.close();
    server.close();
  }

  @Test
  void twoWritersRacingOnOneRecordLoseNoUpdate() throws Exception {
    String path = "/test/tables/obs.metrics";
    new VersionedJson(first).update(path, Names.class, current -> new Names(List.of("created")));
    // Both writers read version 0 before either writes: one write must be refused and retried.
    CyclicBarrier bothRead = new CyclicBarrier(2);
    AtomicInteger calls = new AtomicInteger();
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<Names>> writes = new ArrayList<>();
      for (var writer : List.of(new Object[] {first, "first"}, new Object[] {second, "second"})) {
        CuratorFramework client = (CuratorFramework) writer[0];
        String name = (String) writer[1];
        AtomicInteger mine = new AtomicInteger();
        writes.add(
            threads.submit(
                () ->
                    new VersionedJson(client)
                        .update(
                            path,
                            Names.class,
                            current -> {
                              calls.incrementAndGet();
                              if (mine.getAndIncrement() == 0) {
                                await(bothRead);
                              }
                              return current.orElseThrow().with(name);
                            })));
      }
      for (Future<Names> write : writes) {
        write.get(30, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    Names result = new VersionedJson(first).read(path, Names.class).orElseThrow().value();
    assertThat(result.names()).hasSize(3).startsWith("created").contains("first", "second");
    assertThat(calls.get()).as("the loser read again and re-applied its change once").isEqualTo(3);
    assertThat(new VersionedJson(second).read(path, Names.class).orElseThrow().version())
        .isEqualTo(2);
  }

  @Test
  void anUnchangedValueIsNotWrittenAndAMissingNodeReadsEmpty() throws Exception {
    VersionedJson json = new VersionedJson(first);
    assertThat(json.read("/test/none", Names.class)).isEmpty();
    json.update("/test/a", Names.class, current -> new Names(List.of("x")));
    json.update("/test/a", Names.class, current -> current.orElseThrow());
    assertThat(json.read("/test/a", Names.class).orElseThrow().version()).isZero();
    assertThat(json.children("/test", Names.class)).containsOnlyKeys("a");
    assertThat(json.delete("/test")).isTrue();
    assertThat(json.children("/test", Names.class)).isEmpty();
    assertThat(json.delete("/test")).isFalse();
  }

  @Test
  void anUnreadableValueNamesItsNode() throws Exception {
    first
        .create()
        .creatingParentsIfNeeded()
        .forPath("/test/broken", "not json".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> new VersionedJson(first).read("/test/broken", Names.class))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Cannot read /test/broken: its value is not a Names")
        .hasMessageContaining("bin/shelfmark cluster recover");
    assertThat(Optional.of(first.getNamespace())).contains(CuratorClients.NAMESPACE);
  }

  private static void await(CyclicBarrier barrier) {
    try {
      barrier.await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("The other writer did not read in time", e);
    }
  }
}
