package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.storage.spi.StorageStats;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A node restarted on the same data directory serves the tables it served, at once, from the state
 * its embedded ZooKeeper kept: no onboarding again, no segment rebuilt (no write to the segment
 * store) and no request per segment (no HEAD); its answers equal DuckDB's and the first node's.
 */
class TestNodeRestart {
  private static final String TABLE = "rst.events";
  private static final List<String> QUERIES =
      List.of(
          "SELECT COUNT(*) FROM rst.events",
          "SELECT category, COUNT(*), SUM(quantity) FROM rst.events GROUP BY category"
              + " ORDER BY category NULLS FIRST",
          "SELECT COUNT(*), MIN(id), MAX(id) FROM rst.events WHERE id BETWEEN 10 AND 120");

  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private DuckDbOracle duckDb;
  private Path nodeDir;

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("rst"));
    }
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("rst", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            23);
    for (int i = 0; i < 4; i++) {
      scenario.append(60);
    }
    duckDb = DuckDbOracle.open();
    scenario.state().registerIn(duckDb, "rst", "events");
    nodeDir = directory.resolve("node");
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (duckDb != null) {
      duckDb.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void aRestartedNodeServesItsTablesAtOnceWithoutRebuildingOrAskingPerSegment() throws Exception {
    node = TestingNodes.start(lake, TestingNodes.config(lake, nodeDir).build());
    ServedTable onboarded = node.registry().onboard(config());
    assertThat(onboarded.segmentsReady()).as("nothing built before").isZero();
    ServedTable indexed = awaitIndexed();
    long files = indexed.dataFiles();
    assertThat(files).isGreaterThan(20);
    assertThat(indexed.segmentsReady()).isEqualTo(files);
    List<JsonNode> before = answers();
    node.close();
    node = null;

    StorageStats.Snapshot beforeRestart = lake.store().stats().snapshot();
    node = TestingNodes.start(lake, TestingNodes.config(lake, nodeDir).build());
    StorageStats.Snapshot restart = lake.store().stats().snapshot().minus(beforeRestart);

    ServedTable restored = node.registry().table(TABLE).orElseThrow();
    assertThat(restored.segmentsReady()).as("every segment taken from its record").isEqualTo(files);
    assertThat(restored.segmentsPending()).isZero();
    assertThat(restart.putRequests()).as("segments written by the restart").isZero();
    // A HEAD per segment would be `files` of them; what remains is per table and per node (the
    // catalog's metadata files, the health probe): 3 for 42 files when this was written.
    assertThat(restart.headRequests()).as("HEADs by the restart").isLessThan(files / 4);
    assertThat(answers()).isEqualTo(before);
    assertAnswersEqualDuckDb();

    // Onboarding the served table again with the same config keeps its segments.
    StorageStats.Snapshot beforeOnboard = lake.store().stats().snapshot();
    ServedTable again = node.registry().onboard(config());
    assertThat(again.segmentsReady()).isEqualTo(files);
    assertThat(again.segmentsPending()).isZero();
    assertThat(lake.store().stats().snapshot().minus(beforeOnboard).putRequests()).isZero();
  }

  @Test
  void lostZooKeeperDataIsRecoveredFromTheSegmentStoreAndTheCatalogWithoutRebuilding()
      throws Exception {
    ClusterConfig cluster = TestingNodes.config(lake, nodeDir).build();
    node = TestingNodes.start(lake, cluster);
    node.registry().onboard(config());
    long files = awaitIndexed().dataFiles();
    List<JsonNode> before = answers();
    node.close();
    node = null;

    deleteRecursively(ClusterZooKeeper.embeddedDirectory(nodeDir));
    node = TestingNodes.start(lake, cluster);
    assertThat(node.registry().tables()).as("the state is gone").isEmpty();
    node.close();
    node = null;

    Path configFile = directory.resolve("cluster.yaml");
    Files.writeString(configFile, ConfigWriter.write(cluster, ConfigFormat.YAML));
    StringWriter output = new StringWriter();
    CommandLine command = Shelfmark.commandLine();
    command.setOut(new PrintWriter(output));
    int exit = command.execute("cluster", "recover", "--config", configFile.toString());
    assertThat(exit).as(output.toString()).isZero();
    assertThat(output.toString())
        .startsWith("Recovered rst.events at snapshot ")
        .contains(": %d of %d data files have their segment".formatted(files, files));

    StorageStats.Snapshot beforeRestart = lake.store().stats().snapshot();
    node = TestingNodes.start(lake, cluster);
    ServedTable restored = node.registry().table(TABLE).orElseThrow();
    assertThat(restored.segmentsReady()).isEqualTo(files);
    assertThat(restored.segmentsPending()).isZero();
    assertThat(lake.store().stats().snapshot().minus(beforeRestart).putRequests())
        .as("segments written after recovery")
        .isZero();
    assertThat(answers()).isEqualTo(before);
    assertAnswersEqualDuckDb();
  }

  @Test
  void recoveryWhileTheNodeRunsIsRefused() throws Exception {
    ClusterConfig cluster = TestingNodes.config(lake, nodeDir).build();
    node = TestingNodes.start(lake, cluster);
    Path configFile = directory.resolve("cluster.yaml");
    Files.writeString(configFile, ConfigWriter.write(cluster, ConfigFormat.YAML));
    StringWriter errors = new StringWriter();
    CommandLine command = Shelfmark.commandLine();
    command.setErr(new PrintWriter(errors));
    int exit = command.execute("cluster", "recover", "--config", configFile.toString());
    assertThat(exit).isNotZero();
    assertThat(errors.toString())
        .contains("Cannot start the embedded ZooKeeper server in")
        .contains("stop the node using this data-dir first");
  }

  @Test
  void aDroppedTableIsNotServedAfterARestartAndItsSegmentsStay() throws Exception {
    ClusterConfig cluster = TestingNodes.config(lake, nodeDir).build();
    node = TestingNodes.start(lake, cluster);
    node.registry().onboard(config());
    long files = awaitIndexed().dataFiles();

    StringWriter output = new StringWriter();
    CommandLine command = Shelfmark.commandLine();
    command.setOut(new PrintWriter(output));
    assertThat(command.execute("table", "drop", TABLE, "--broker", node.url())).isZero();
    assertThat(output.toString()).startsWith("Dropped rst.events; its segments stay");
    assertThat(new BrokerClient(node.url()).table(TABLE)).isEmpty();
    JsonNode refused =
        new BrokerClient(node.url())
            .query("SELECT COUNT(*) FROM rst.events", Optional.of(Duration.ofSeconds(10)));
    assertThat(refused.path("exceptions").toString()).contains("rst.events");
    StringWriter errors = new StringWriter();
    command.setErr(new PrintWriter(errors));
    assertThat(command.execute("table", "drop", TABLE, "--broker", node.url())).isNotZero();
    assertThat(errors.toString())
        .contains("Cannot drop table rst.events at")
        .contains("no such table");
    node.close();
    node = null;

    node = TestingNodes.start(lake, cluster);
    assertThat(node.registry().tables()).isEmpty();
    StorageStats.Snapshot beforeOnboard = lake.store().stats().snapshot();
    node.registry().onboard(config());
    assertThat(awaitIndexed().segmentsReady()).isEqualTo(files);
    assertThat(lake.store().stats().snapshot().minus(beforeOnboard).putRequests())
        .as("segments written when onboarding the dropped table again: only its config copy")
        .isEqualTo(1);
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  @Test
  void theEmbeddedZooKeeperKeepsItsDataUnderTheNodesDataDirectory() throws Exception {
    node = TestingNodes.start(lake, TestingNodes.config(lake, nodeDir).build());
    assertThat(ClusterZooKeeper.embeddedDirectory(nodeDir).resolve("data")).isDirectory();
  }

  static TableConfig config() {
    return TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "rst", "events"))
        .column("category", ColumnConfig.of(IndexKind.INVERTED))
        .column("id", ColumnConfig.of(IndexKind.RANGE))
        .build();
  }

  private ServedTable awaitIndexed() {
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table(TABLE).orElseThrow().segmentsPending() == 0);
    return node.registry().table(TABLE).orElseThrow();
  }

  private List<JsonNode> answers() {
    BrokerClient broker = new BrokerClient(node.url());
    List<JsonNode> rows = new ArrayList<>();
    for (String sql : QUERIES) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      assertThat(response.path("exceptions")).as(sql).isEmpty();
      rows.add(response.path("resultTable").path("rows"));
    }
    return rows;
  }

  private void assertAnswersEqualDuckDb() throws Exception {
    BrokerClient broker = new BrokerClient(node.url());
    for (String sql : QUERIES) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      ResultComparison.assertEquivalent(
          duckDb.query(sql), TestSegmentRepair.resultOf(response), sql.contains("ORDER BY"), 1e-9);
    }
  }
}
