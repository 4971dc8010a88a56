package io.shelfmark.cli.bench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.config.unit.DataSize;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The child JVM of a cold run, without a lake: a node whose storage endpoint answers nothing (no S3
 * request is made until a table is onboarded) over a fresh SQLite catalog. The first three tests
 * each start a real child JVM.
 */
class TestColdNodeProcess {
  private static final URI NOWHERE = URI.create("http://127.0.0.1:9");

  @TempDir Path dir;

  @Test
  void stopsByItselfWhenItsParentGoesAway() throws Exception {
    Path config = writeConfig(SegmentMode.PINNED);
    try (ColdNodeProcess node =
        ColdNodeProcess.start(config, NOWHERE, "127.0.0.1", dir.resolve("runs"), "orphan")) {
      assertThat(node.process().pid()).isNotEqualTo(ProcessHandle.current().pid());
      assertThat(node.url()).startsWith("http://127.0.0.1:");
      assertThat(new BrokerClient(node.url()).tables()).isEmpty();
      // A parent that dies, even killed, closes the pipe that is the child's standard input.
      node.process().getOutputStream().close();
      await().atMost(Duration.ofSeconds(60)).until(() -> !node.process().isAlive());
      assertThat(node.process().exitValue()).isZero();
      assertThat(Files.readString(node.log()))
          .contains("Cold node (pid " + node.process().pid() + ") is serving on " + node.url())
          .contains("Cold node stopping");
    }
  }

  @Test
  void failureNamesTheChildsLog() throws IOException {
    Path config = dir.resolve("bad.json");
    Files.writeString(config, "{\"storage\": {\"type\": \"s3\"}}", StandardCharsets.UTF_8);
    Path runs = dir.resolve("runs");
    assertThatThrownBy(() -> ColdNodeProcess.start(config, NOWHERE, "127.0.0.1", runs, "pinned-Q2"))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot start the cold node pinned-Q2: its JVM exited with status 1 before serving"
                + " (see "
                + runs.resolve("pinned-Q2.log")
                + ")");
    assertThat(Files.readString(runs.resolve("pinned-Q2.log"))).contains("segment-store");
  }

  @Test
  void childCommandIsThisJvmsJavaClassPathAndHeap() {
    List<String> command =
        ColdNodeProcess.command(dir.resolve("c.json"), NOWHERE, dir.resolve("p.port"));
    assertThat(command.get(0)).endsWith("java");
    assertThat(command)
        .containsSubsequence(
            "--enable-native-access=ALL-UNNAMED",
            "--sun-misc-unsafe-memory-access=allow",
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-cp",
            System.getProperty("java.class.path"),
            ColdNodeMain.class.getName(),
            "--config=" + dir.resolve("c.json"),
            "--catalog-endpoint=http://127.0.0.1:9",
            "--port-file=" + dir.resolve("p.port"));
    // Surefire runs this JVM with -Xmx2g: the child gets the same limit.
    assertThat(command).contains("-Xmx2g");
  }

  @Test
  void configFileReadsBackAsWrittenWithItsSegmentMode() throws IOException {
    for (SegmentMode mode : SegmentMode.values()) {
      Path file = writeConfig(mode);
      ClusterConfig read = ConfigLoader.withoutEnvironment().loadCluster(file);
      assertThat(read).isEqualTo(config(mode));
      assertThat(read.segmentMode()).isEqualTo(mode);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
    }
  }

  private Path writeConfig(SegmentMode mode) throws IOException {
    Path file = dir.resolve("node-" + mode.configName() + ".json");
    BenchNodes.writeConfig(config(mode), file);
    return file;
  }

  private ClusterConfig config(SegmentMode mode) {
    Path nodeDir = dir.resolve("node");
    return ClusterConfig.builder()
        .storage(
            StorageConfig.builder()
                .type(StorageType.S3)
                .endpoint(NOWHERE)
                .region("us-east-1")
                .pathStyleAccess(true)
                .credentials(new StaticCredentials("access", "secret"))
                .build())
        .catalog(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .uri("jdbc:sqlite:" + dir.resolve("catalog.db"))
                .warehouse("s3://lake/warehouse")
                .build())
        .segmentStore("s3://lake/_shelfmark")
        .dataDir(nodeDir)
        .segmentMode(mode)
        .cache(
            CacheConfig.builder()
                .memoryMaxSize(DataSize.of(16, DataSize.Unit.MEBIBYTE))
                .diskMaxSize(DataSize.ofBytes(0))
                .build(nodeDir))
        .build();
  }
}
