package io.shelfmark.cluster.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestServedFiles {
  @TempDir Path directory;

  @Test
  void aLargeReportIsGzippedUnderOneNodeAndReadBack() throws Exception {
    ServedFiles small = report(100);
    assertThat(small.encode("obs.metrics")[0]).as("plain JSON").isEqualTo((byte) '{');

    ServedFiles large = report(30_000);
    byte[] bytes = large.encode("obs.metrics");
    assertThat(bytes[0]).as("gzip's magic").isEqualTo((byte) 0x1f);
    assertThat(bytes.length).isLessThanOrEqualTo(ServedFiles.MAX_BYTES);
    try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(directory, 0);
        CuratorFramework client =
            CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded())) {
      for (var report : List.of(small, large)) {
        String path = "/test/served/server-" + report.files().size();
        client
            .create()
            .creatingParentsIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .forPath(path, report.encode("obs.metrics"));
        assertThat(new VersionedJson(client).read(path, ServedFiles.class).orElseThrow().value())
            .isEqualTo(report);
      }
      assertThat(new VersionedJson(client).children("/test/served", ServedFiles.class))
          .containsOnlyKeys("server-100", "server-30000");
    }
  }

  @Test
  void aReportOverOneNodeEvenGzippedIsRefusedNamingItsTable() {
    assertThatThrownBy(() -> report(120_000).encode("obs.metrics"))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith(
            "Cannot report what this server serves of obs.metrics: its 120000 files' paths make ")
        .hasMessageContaining("over the 1000000 one ZooKeeper node holds (jute.maxbuffer)")
        .hasMessageContaining("add servers");
  }

  /** A report of {@code count} files named as Iceberg names them. */
  private static ServedFiles report(int count) {
    List<String> files = new ArrayList<>();
    TestTableAssignmentStore.files(count, 3, "server-1").keySet().forEach(files::add);
    return new ServedFiles(3, 6113807771568454558L, files);
  }
}
