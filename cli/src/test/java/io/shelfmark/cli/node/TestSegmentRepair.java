package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

/**
 * A pinned segment damaged on local disk while the node was down: the restarted node finds it
 * before any query uses it, downloads the intact copy from the segment store again, serves as
 * before and says so in the table's status; when the store's copy is damaged too, the segment is
 * reported failed with its reason and its file is read directly — answers stay DuckDB's either way.
 */
class TestSegmentRepair {
  private static final String TABLE = "rep.events";
  private static final List<String> QUERIES =
      List.of(
          "SELECT COUNT(*) FROM rep.events",
          "SELECT category, COUNT(*), SUM(quantity) FROM rep.events GROUP BY category"
              + " ORDER BY category NULLS FIRST",
          "SELECT COUNT(*), MIN(id), MAX(id) FROM rep.events WHERE id BETWEEN 10 AND 120",
          "SELECT quantity, COUNT(*) FROM rep.events WHERE quantity IN (1, 2, 3)"
              + " GROUP BY quantity ORDER BY quantity");

  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private DuckDbOracle duckDb;
  private Path nodeDir;

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("rep"));
    }
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("rep", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            11);
    scenario.append(150);
    scenario.append(150);
    duckDb = DuckDbOracle.open();
    scenario.state().registerIn(duckDb, "rep", "events");
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
  void segmentDamagedOnLocalDiskIsDownloadedAgainAndServes() throws Exception {
    JsonNode first = startAndServe();
    assertThat(first.path("segmentsRepaired").asLong()).isZero();
    long ready = first.path("segmentsReady").asLong();
    assertThat(ready).isGreaterThan(1);
    node.close();
    node = null;

    Path pinned = pinnedSegments().getFirst();
    byte[] intact = Files.readAllBytes(pinned);
    flipMiddleByte(pinned);

    JsonNode status = startAndServe();
    assertThat(status.path("segmentsRepaired").asLong()).isEqualTo(1);
    assertThat(status.path("segmentsFailed").asLong()).isZero();
    assertThat(status.path("segmentsReady").asLong()).isEqualTo(ready);
    assertThat(Files.readAllBytes(pinned))
        .as("the local copy is the store's again")
        .isEqualTo(intact);
    assertAnswersEqualDuckDb();
  }

  @Test
  void segmentDamagedInTheStoreTooIsReportedFailedAndItsFileReadDirectly() throws Exception {
    long ready = startAndServe().path("segmentsReady").asLong();
    node.close();
    node = null;

    Path pinned = pinnedSegments().getFirst();
    String relative = nodeDir.resolve("segments").relativize(pinned).toString();
    Path stored = storedSegment(relative);
    flipMiddleByte(pinned);
    flipMiddleByte(stored);

    JsonNode status = startAndServe();
    assertThat(status.path("segmentsFailed").asLong()).isEqualTo(1);
    assertThat(status.path("segmentsReady").asLong()).isEqualTo(ready - 1);
    assertThat(status.path("segmentsRepaired").asLong()).isZero();
    JsonNode failure = status.path("failures").get(0);
    assertThat(failure.path("reason").asText())
        .contains("segment store's copy is damaged too")
        .contains("checksum mismatch")
        .doesNotContain(directory.toString());
    assertAnswersEqualDuckDb();
  }

  /** Starts a node on the same data directory, onboards the table and waits for its segments. */
  private JsonNode startAndServe() throws Exception {
    node =
        TestingNodes.start(
            lake, TestingNodes.config(lake, nodeDir).segmentMode(SegmentMode.PINNED).build());
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "rep", "events"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .column("id", ColumnConfig.of(IndexKind.RANGE))
                .column("quantity", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table(TABLE).orElseThrow().segmentsPending() == 0);
    return new BrokerClient(node.url()).table(TABLE).orElseThrow();
  }

  private void assertAnswersEqualDuckDb() throws Exception {
    BrokerClient broker = new BrokerClient(node.url());
    for (String sql : QUERIES) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      assertThat(response.path("exceptions")).as(sql).isEmpty();
      ResultComparison.assertEquivalent(
          duckDb.query(sql), resultOf(response), sql.contains("ORDER BY"), 1e-9);
    }
  }

  private List<Path> pinnedSegments() throws IOException {
    try (Stream<Path> files = Files.walk(nodeDir.resolve("segments"))) {
      List<Path> segments =
          files.filter(p -> p.getFileName().toString().endsWith(".shfm")).sorted().toList();
      assertThat(segments).as("pinned segments").isNotEmpty();
      return segments;
    }
  }

  /** The store's copy of a pinned segment: the same path below the store's prefix. */
  private Path storedSegment(String relative) throws IOException {
    Path prefix =
        lake.s3()
            .baseDirectory()
            .resolve(LocalLake.BUCKET)
            .resolve("_shelfmark")
            .resolve("segments");
    Path stored = prefix.resolve(relative);
    assertThat(stored).as("the store's copy of " + relative).exists();
    return stored;
  }

  /** Flips every bit of the byte in the middle of the file: a part's checksum no longer matches. */
  private static void flipMiddleByte(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      long middle = raf.length() / 2;
      raf.seek(middle);
      int value = raf.read();
      raf.seek(middle);
      raf.write(~value & 0xff);
    }
  }

  static QueryResult resultOf(JsonNode response) {
    JsonNode schema = response.path("resultTable").path("dataSchema");
    List<String> columns = new ArrayList<>();
    for (JsonNode name : schema.path("columnNames")) {
      columns.add(name.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (JsonNode value : row) {
        values.add(
            value.isNull()
                ? null
                : value.isIntegralNumber()
                    ? (Object) value.asLong()
                    : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      rows.add(values);
    }
    return QueryResult.normalized(columns, rows);
  }
}
