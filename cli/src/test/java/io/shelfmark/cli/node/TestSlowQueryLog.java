package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.broker.querylog.QueryLog;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The slow-query log through a real node: with {@code query.slow-threshold: 1ms} every query is
 * slow, and its line carries its EXPLAIN ANALYZE, whose figures are the line's (and the response's)
 * own.
 */
class TestSlowQueryLog {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "met.events";

  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private final Logger logger = (Logger) LoggerFactory.getLogger(QueryLog.LOGGER);
  private final Level levelBefore = logger.getLevel();
  private final ListAppender<ILoggingEvent> events = new ListAppender<>();

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("met"));
    }
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("met", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            5);
    scenario.append(200);
    QueryConfig defaults = QueryConfig.defaults();
    node =
        TestingNodes.start(
            lake,
            TestingNodes.config(lake, directory.resolve("node"))
                .warmup(WarmupConfig.off())
                .query(
                    new QueryConfig(
                        defaults.heavyMaxRunning(),
                        defaults.heavyMaxQueued(),
                        defaults.cheapMaxRunning(),
                        defaults.cheapMaxQueued(),
                        defaults.cheapMaxRows(),
                        defaults.maxGroups(),
                        defaults.maxDistinctValues(),
                        defaults.maxRows(),
                        defaults.maxInListItems(),
                        Duration.ofMillis(1),
                        true))
                .build());
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "met", "events"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table(TABLE).orElseThrow().segmentsPending() == 0);
    events.start();
    logger.addAppender(events);
    logger.setLevel(Level.INFO);
  }

  @AfterEach
  void stop() throws Exception {
    logger.detachAppender(events);
    logger.setLevel(levelBefore);
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void aSlowQueryIsLoggedWithItsExplainAnalyze() throws Exception {
    BrokerClient broker = new BrokerClient(node.url());
    JsonNode response =
        broker.query(
            "SELECT category, COUNT(*) FROM met.events GROUP BY category", Optional.empty());
    assertThat(response.path("exceptions")).isEmpty();
    // A plain response carries no report: the profile is the log's alone.
    assertThat(response.has("explain")).isFalse();

    List<JsonNode> lines = lines();
    assertThat(lines).hasSize(1);
    JsonNode line = lines.getFirst();
    assertThat(line.path("slow").asBoolean()).isTrue();
    assertThat(line.path("explainAnalyze").path(0).asText())
        .startsWith("EXPLAIN ANALYZE " + TABLE + " (snapshot ");
    JsonNode explain = line.path("explain");
    assertThat(explain.path("mode").asText()).isEqualTo("ANALYZE");
    assertThat(explain.path("totals").path("matchedRows").asLong())
        .isEqualTo(line.path("docsScanned").asLong())
        .isEqualTo(response.path("numDocsScanned").asLong())
        .isPositive();
    assertThat(explain.path("totals").path("filesRun").asLong())
        .isEqualTo(response.path("numSegmentsProcessed").asLong());
    assertThat(explain.path("pruning").path("afterStatistics").asLong())
        .isEqualTo(line.path("filesQueried").asLong());
    assertThat(explain.path("timeMicros").path("total").asLong()).isPositive();
  }

  private List<JsonNode> lines() throws Exception {
    List<JsonNode> lines = new java.util.ArrayList<>();
    for (ILoggingEvent event : events.list) {
      assertThat(event.getLevel()).isEqualTo(Level.WARN);
      lines.add(JSON.readTree(event.getFormattedMessage()));
    }
    return lines;
  }
}
