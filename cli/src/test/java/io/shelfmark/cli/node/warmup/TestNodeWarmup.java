package io.shelfmark.cli.node.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node with a page cache warms up on its first ready table over the embedded S3 lake: its warm-up
 * queries all succeed, the table reports {@code running} then {@code done}, and the caches those
 * queries filled are empty when it is done, until a user query fills them again.
 */
class TestNodeWarmup {
  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void warmsUpOnTheFirstReadyTableAndLeavesTheCachesEmpty() throws Exception {
    start(new WarmupConfig(3, Duration.ofSeconds(60)));
    onboardScenarioTable();
    BrokerClient broker = new BrokerClient(node.url());
    await()
        .atMost(Duration.ofSeconds(120))
        .until(() -> node.warmupState() == NodeWarmup.State.DONE);

    NodeWarmup.Summary summary = node.warmupSummary().orElseThrow();
    assertThat(summary.table()).isEqualTo("evo.events");
    assertThat(summary.rounds()).isEqualTo(3);
    // category and quantity alone, both together, and SUM/MIN/MAX/AVG of id and amount.
    assertThat(summary.queries()).isEqualTo(2 + 1 + 2);
    assertThat(summary.failed()).isZero();
    // Then each query planned and pruned without running, to compile the planner.
    assertThat(summary.plans()).isEqualTo(summary.queries() * NodeWarmup.PLANNING_RUNS);
    assertThat(broker.table("evo.events").orElseThrow().path("warmup").asText()).isEqualTo("done");
    assertThat(node.cachedBytes()).as("caches emptied after warm-up").isZero();

    JsonNode response =
        broker.query(
            "SELECT SUM(amount), COUNT(*) FROM evo.events", Optional.of(Duration.ofSeconds(30)));
    assertThat(response.path("exceptions")).isEmpty();
    assertThat(response.path("storageBytesRead").asLong()).isPositive();
    assertThat(node.cachedBytes()).as("a user query fills them again").isPositive();
  }

  @Test
  void roundsZeroTurnsWarmupOff() throws Exception {
    start(WarmupConfig.off());
    onboardScenarioTable();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table("evo.events").orElseThrow().segmentsPending() == 0);
    assertThat(node.warmupState()).isEqualTo(NodeWarmup.State.OFF);
    assertThat(node.warmupSummary()).isEmpty();
    assertThat(
            new BrokerClient(node.url()).table("evo.events").orElseThrow().path("warmup").asText())
        .isEqualTo("off");
  }

  private void start(WarmupConfig warmup) throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("evo"));
    }
    Path nodeDir = directory.resolve("node");
    node =
        AllInOne.start(
            ClusterConfig.builder()
                .storage(lake.storageConfig())
                .catalog(lake.catalogConfig())
                .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments/")
                .dataDir(nodeDir)
                .segmentMode(SegmentMode.PINNED)
                .cache(
                    CacheConfig.builder()
                        .memoryMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
                        .diskMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
                        .build(nodeDir))
                .warmup(warmup)
                .build(),
            Map.of(LocalLake.CATALOG_NAME, lake.catalog()),
            lake.store(),
            0);
  }

  private void onboardScenarioTable() throws Exception {
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("evo", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            42);
    scenario.append(200);
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "evo", "events"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .column("quantity", ColumnConfig.of(IndexKind.INVERTED))
                .build());
  }
}
