package io.shelfmark.cluster.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTableAssignmentStore {
  private static final String PATH = "/test/routing/obs.metrics";

  /** Small limits, so that a few hundred files make many parts in several transactions. */
  private static final TableAssignmentStore.Limits SMALL =
      new TableAssignmentStore.Limits(1 << 10, 2 << 10, 4 << 10);

  @TempDir Path directory;
  private EmbeddedZooKeeper server;
  private CuratorFramework first;
  private CuratorFramework second;

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
  void aFiftyThousandFileRoutingIsWrittenInPartsAndReadBackEqual() throws Exception {
    TableAssignment routing =
        table(1, files(50_000, 1, "server@10.0.1.11:8098", "server@10.0.1.12:8098"));
    // Today's single node could not hold it: ZooKeeper refuses a value over jute.maxbuffer (1 MB).
    int wholeBytes = VersionedJson.toJson(routing).getBytes(StandardCharsets.UTF_8).length;
    assertThat(wholeBytes).isGreaterThan(1 << 20);

    TableAssignmentStore store = new TableAssignmentStore(first);
    store.update(PATH, current -> routing);

    TableAssignment read = new TableAssignmentStore(second).read(PATH).orElseThrow();
    assertThat(read).isEqualTo(routing);
    assertThat(List.copyOf(read.files().keySet()))
        .as("files in the snapshot's order")
        .isEqualTo(List.copyOf(routing.files().keySet()));
    AssignmentHead head = store.heads("/test/routing").get("obs.metrics");
    assertThat(head.files()).isNull();
    assertThat(head.parts().files()).isEqualTo(50_000);
    assertThat(head.parts().count()).isGreaterThan(1);
    String parts = PATH + "/parts/" + head.parts().directory();
    long stored = 0;
    for (String part : first.getChildren().forPath(parts)) {
      int bytes = first.getData().forPath(parts + "/" + part).length;
      assertThat(bytes)
          .as("part %s", part)
          .isLessThan(TableAssignmentStore.Limits.DEFAULT.partBytes());
      stored += bytes;
    }
    assertThat(stored).as("gzip'd parts").isLessThan(wholeBytes / 3);
    assertThat(store.children("/test/routing")).containsExactly(Map.entry("obs.metrics", routing));
  }

  @Test
  void aReaderRacingAWriterNeverSeesTwoVersionsMixed() throws Exception {
    TableAssignmentStore writer = new TableAssignmentStore(first, SMALL);
    TableAssignmentStore reader = new TableAssignmentStore(second, SMALL);
    writer.update(PATH, current -> table(1, files(300, 1, "server-1")));
    int versions = 150;
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      Future<?> writes =
          threads.submit(
              () -> {
                try {
                  for (int v = 2; v <= versions; v++) {
                    int version = v;
                    // Every file of version v is on "server-v" alone: a mix would show two names.
                    writer.update(
                        PATH, current -> table(version, files(300, version, "server-" + version)));
                  }
                } finally {
                  writing.set(false);
                }
                return null;
              });
      Future<Set<Long>> reads =
          threads.submit(
              () -> {
                Set<Long> seen = new TreeSet<>();
                while (writing.get()) {
                  TableAssignment read = reader.read(PATH).orElseThrow();
                  assertThat(read.files()).hasSize(300);
                  assertThat(read.servers())
                      .as("servers of version %s", read.version())
                      .containsExactly("server-" + read.version());
                  assertThat(read.files().keySet().iterator().next())
                      .contains("-v" + read.version() + "-");
                  seen.add(read.version());
                }
                return seen;
              });
      writes.get(120, TimeUnit.SECONDS);
      Set<Long> seen = reads.get(120, TimeUnit.SECONDS);
      assertThat(seen).as("versions the reader saw whole").hasSizeGreaterThan(10);
    } finally {
      threads.shutdownNow();
    }
    assertThat(reader.read(PATH).orElseThrow().version()).isEqualTo(versions);
    assertThat(first.getChildren().forPath(PATH + "/parts"))
        .as("the last version's parts and the previous one's")
        .hasSize(2);
  }

  @Test
  void twoWritersOnASplitRecordLoseNoChange() throws Exception {
    new TableAssignmentStore(first, SMALL).update(PATH, current -> table(1, files(200, 1, "s")));
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (CuratorFramework client : List.of(first, second)) {
        String writer = client == first ? "first" : "second";
        TableAssignmentStore store = new TableAssignmentStore(client, SMALL);
        writes.add(
            threads.submit(
                () -> {
                  for (int i = 0; i < 40; i++) {
                    String added = "s3://lake/added/" + writer + "-" + i + ".parquet";
                    store.update(PATH, current -> adding(current.orElseThrow(), added));
                  }
                  return null;
                }));
      }
      for (Future<?> write : writes) {
        write.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    TableAssignment result = new TableAssignmentStore(first).read(PATH).orElseThrow();
    assertThat(result.files()).hasSize(280);
    assertThat(result.version()).as("one version per change").isEqualTo(81);
    assertThat(result.files().keySet().stream().filter(path -> path.contains("/added/")))
        .hasSize(80);
  }

  @Test
  void aRecordWrittenAsOneNodeBeforeSplittingExistedIsRead() throws Exception {
    TableAssignment old = table(7, files(2, 7, "server-1"));
    // What the previous version wrote: the record as one JSON node through VersionedJson.
    new VersionedJson(first).overwrite(PATH, TableAssignment.class, old);

    TableAssignmentStore store = new TableAssignmentStore(first, SMALL);
    assertThat(store.read(PATH)).contains(old);
    // It grows past one node: it is split; it shrinks again: one node, as before.
    TableAssignment grown = table(8, files(300, 8, "server-1"));
    store.update(PATH, current -> grown);
    assertThat(store.heads("/test/routing").get("obs.metrics").parts()).isNotNull();
    assertThat(store.read(PATH)).contains(grown);
    store.update(PATH, current -> old);
    assertThat(new VersionedJson(first).read(PATH, TableAssignment.class).orElseThrow().value())
        .as("a small record is one node that the previous version reads")
        .isEqualTo(old);
  }

  @Test
  void partsOfOldVersionsAreDeleted() throws Exception {
    TableAssignmentStore store = new TableAssignmentStore(first, SMALL);
    // A writer that died after writing its parts and before setting the head left these.
    first
        .create()
        .creatingParentsIfNeeded()
        .forPath(PATH + "/parts/0000000000-dead/0", new byte[] {1});
    List<String> directories = new ArrayList<>();
    for (int v = 1; v <= 3; v++) {
      int version = v;
      store.update(PATH, current -> table(version, files(300, version, "server-1")));
      directories.add(store.heads("/test/routing").get("obs.metrics").parts().directory());
    }
    assertThat(first.getChildren().forPath(PATH + "/parts"))
        .as("the current version's parts and the previous one's (readers may be reading them)")
        .containsExactlyInAnyOrder(directories.get(2), directories.get(1));

    store.update(PATH, current -> table(4, files(2, 4, "server-1")));
    assertThat(first.getChildren().forPath(PATH + "/parts")).containsExactly(directories.get(2));
    store.update(PATH, current -> table(5, files(2, 5, "server-1")));
    assertThat(first.getChildren().forPath(PATH + "/parts")).isEmpty();
    assertThat(store.delete(PATH)).isTrue();
    assertThat(store.read(PATH)).isEmpty();
  }

  @Test
  void aDamagedPartNamesItself() throws Exception {
    TableAssignmentStore store = new TableAssignmentStore(first, SMALL);
    store.update(PATH, current -> table(1, files(300, 1, "server-1")));
    String part =
        PATH
            + "/parts/"
            + store.heads("/test/routing").get("obs.metrics").parts().directory()
            + "/1";
    first.setData().forPath(part, "not gzip".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> store.read(PATH))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("Cannot read part /test/routing/obs.metrics/parts/")
        .hasMessageContaining("it is not gzip'd JSON of files")
        .hasMessageContaining("delete the record's node above it");
  }

  @Test
  void aNewVersionWakesAWatcherOnceByItsHead() throws Exception {
    TableAssignmentStore store = new TableAssignmentStore(first, SMALL);
    store.update(PATH, current -> table(1, files(300, 1, "server-1")));
    AtomicInteger heads = new AtomicInteger();
    AtomicInteger all = new AtomicInteger();
    CountDownLatch loaded = new CountDownLatch(1);
    try (CuratorCache cache = CuratorCache.build(second, "/test/routing")) {
      cache
          .listenable()
          .addListener(
              CuratorCacheListener.builder()
                  .forAll(
                      (type, before, after) -> {
                        all.incrementAndGet();
                        if (!TableAssignmentStore.isPart("/test/routing", before, after)) {
                          heads.incrementAndGet();
                        }
                      })
                  .forInitialized(loaded::countDown)
                  .build());
      cache.start();
      assertThat(loaded.await(30, TimeUnit.SECONDS)).isTrue();
      heads.set(0);
      all.set(0);
      for (int v = 2; v <= 6; v++) {
        int version = v;
        store.update(PATH, current -> table(version, files(300, version, "server-1")));
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .during(Duration.ofMillis(500))
          .until(() -> heads.get() == 5);
      assertThat(all.get()).as("the parts' own events, which a follower ignores").isGreaterThan(50);
    }
  }

  @Test
  void watchEventsOfPartsAreToldFromHeads() {
    assertThat(TableAssignmentStore.isPart("/c/routing", "/c/routing/obs.metrics")).isFalse();
    assertThat(TableAssignmentStore.isPart("/c/routing", "/c/routing/obs.metrics/parts")).isTrue();
    assertThat(TableAssignmentStore.isPart("/c/routing", "/c/routing/obs.metrics/parts/01-a/3"))
        .isTrue();
    assertThat(TableAssignmentStore.isPart("/c/assignments", "/c/assignments/t.x/served/s-1"))
        .isFalse();
    assertThat(TableAssignmentStore.isPart("/parts", "/parts/t.x")).isFalse();
  }

  private static TableAssignment adding(TableAssignment record, String file) {
    Map<String, FileReplicas> files = new LinkedHashMap<>(record.files());
    files.put(file, new FileReplicas(null, 0, List.of("s")));
    return new TableAssignment(
        record.table(),
        record.catalog(),
        record.namespace(),
        record.name(),
        record.snapshotId(),
        record.version() + 1,
        files);
  }

  private static TableAssignment table(long version, Map<String, FileReplicas> files) {
    return new TableAssignment(
        "obs.metrics", "shelfmark", "obs", "metrics", 6113807771568454558L, version, files);
  }

  /** {@code count} files named as Iceberg names them, {@code version} in each name, on servers. */
  static Map<String, FileReplicas> files(int count, long version, String... servers) {
    Random random = new Random(count * 31L + version);
    HexFormat hex = HexFormat.of();
    Map<String, FileReplicas> files = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      byte[] id = new byte[16];
      random.nextBytes(id);
      String uuid = hex.formatHex(id);
      String path =
          "s3://lake/warehouse/obs/metrics/data/ts_day=2026-11-%02d/%05d-v%d-%s-00001.parquet"
              .formatted(1 + i % 28, i, version, uuid);
      String segment =
          i % 10 == 9
              ? null
              : "s3://lake/_shelfmark/segments/obs.metrics/3f2a9c0d1e7b4a55/%s-%d.shfm"
                  .formatted(uuid, 41_833_210 + i);
      files.put(
          path, new FileReplicas(segment, segment == null ? 0 : 9_120_333 + i, List.of(servers)));
    }
    return files;
  }
}
