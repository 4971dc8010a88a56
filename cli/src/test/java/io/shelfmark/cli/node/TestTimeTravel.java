package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.iceberg.ScenarioFile;
import io.shelfmark.testing.iceberg.ScenarioState;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time travel on an all-in-one node over the embedded S3 lake: a format v2 table gets appends, a
 * position delete and an overwrite; the node serves the last snapshot, and queries that ask for an
 * older one ({@code snapshotId}, {@code asOfTimestamp}, {@code SET snapshotId=...;}) answer as
 * DuckDB does over that snapshot's live files with that snapshot's deletes applied. Refusals name
 * what is wrong: an unknown snapshot id (listing those kept), a time before the first snapshot, a
 * malformed option, and a past snapshot whose data file is gone (never a partial answer).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestTimeTravel {
  private static final Logger log = LoggerFactory.getLogger(TestTimeTravel.class);
  private static final String TABLE = "evo.tt";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int RANDOM_QUERIES = 40;

  @TempDir static Path directory;
  private static LocalLake lake;
  private static AllInOne node;
  private static DuckDbOracle duckDb;
  private static BrokerClient broker;
  private static IcebergScenario scenario;
  // The table after each commit: append, delete, append, overwrite (served).
  private static ScenarioState appended;
  private static ScenarioState deleted;
  private static ScenarioState appendedAgain;
  private static ScenarioState served;

  @BeforeAll
  static void start() throws Exception {
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
                .segmentMode(SegmentMode.REMOTE)
                .cache(
                    CacheConfig.builder()
                        .memoryMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
                        .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
                        .build(nodeDir))
                .build(),
            Map.of(LocalLake.CATALOG_NAME, lake.catalog()),
            lake.store(),
            0);
    duckDb = DuckDbOracle.open();
    broker = new BrokerClient(node.url());
    scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("evo", "tt"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            SEED);
    appended = scenario.append(120);
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "evo", "tt"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .column("id", ColumnConfig.of(IndexKind.RANGE))
                .column("quantity", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    awaitServed(appended);
    deleted = scenario.deleteRows(3, 5);
    appendedAgain = scenario.append(60);
    served = scenario.overwrite(1);
    awaitServed(served);
  }

  @AfterAll
  static void stop() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  private static void awaitServed(ScenarioState state) throws Exception {
    long snapshot = state.snapshotId().orElseThrow();
    node.registry().refresh(TABLE);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              ServedTable table = node.registry().table(TABLE).orElseThrow();
              return table.snapshotId() == snapshot && table.segmentsPending() == 0;
            });
    ServedTable table = node.registry().table(TABLE).orElseThrow();
    assertThat(table.segmentsFailed()).as(table.failures().toString()).isZero();
  }

  private static final List<String> QUERIES =
      List.of(
          "SELECT COUNT(*) FROM " + TABLE,
          "SELECT COUNT(*), MIN(id), MAX(id), SUM(quantity) FROM "
              + TABLE
              + " WHERE id BETWEEN 10 AND 150",
          "SELECT category, COUNT(*), SUM(quantity), SUM(amount) FROM "
              + TABLE
              + " GROUP BY category ORDER BY category NULLS FIRST",
          "SELECT id, category, quantity FROM "
              + TABLE
              + " WHERE id < 60 AND category <> 'c1' ORDER BY id LIMIT 15",
          "SELECT COUNT(event_time), COUNT(DISTINCT event_day), SUM(price) FROM " + TABLE);

  @Test
  @Order(1)
  void eachPastSnapshotByIdAnswersLikeDuckDbOverItsFiles() {
    assertThat(deleted.positionDeletes()).as("the delete step deleted rows").isNotEmpty();
    for (ScenarioState state : List.of(appended, deleted, appendedAgain, served)) {
      long id = state.snapshotId().orElseThrow();
      checkAll(state, Map.of("snapshotId", Long.toString(id)), id);
    }
  }

  @Test
  @Order(2)
  void asOfTimestampAnswersTheSnapshotCurrentThen() {
    // The deleting commit's own time (epoch ms), a moment before the next commit (ISO-8601).
    long deletedAt = committedAt(deleted);
    checkAll(
        deleted,
        Map.of("asOfTimestamp", Long.toString(deletedAt)),
        deleted.snapshotId().orElseThrow());
    Instant beforeNext = Instant.ofEpochMilli(committedAt(appendedAgain) - 1);
    if (beforeNext.toEpochMilli() >= deletedAt) {
      checkAll(
          deleted,
          Map.of("asOfTimestamp", beforeNext.toString()),
          deleted.snapshotId().orElseThrow());
    }
    checkAll(
        appendedAgain,
        Map.of("asOfTimestamp", Instant.ofEpochMilli(committedAt(appendedAgain)).toString()),
        appendedAgain.snapshotId().orElseThrow());
    checkAll(served, Map.of("asOfTimestamp", "2999-01-01T00:00:00Z"), currentId());
  }

  @Test
  @Order(3)
  void optionsInTheSqlWinOverTheRequests() {
    long old = appended.snapshotId().orElseThrow();
    appended.registerIn(duckDb, "evo", "tt");
    String sql = "SELECT COUNT(*), SUM(quantity) FROM " + TABLE;
    JsonNode response =
        broker.query(
            "SET snapshotId=" + old + "; " + sql,
            Optional.of(TIMEOUT),
            Map.of("snapshotId", Long.toString(currentId())));
    assertThat(response.path("exceptions")).as(response.toString()).isEmpty();
    assertThat(response.path("snapshotId").asLong()).isEqualTo(old);
    ResultComparison.assertEquivalent(
        duckDb.query(sql), TestQuickstart.resultOf(response), false, 1e-9);
  }

  @Test
  @Order(4)
  void randomQueriesOnAPastSnapshotAnswerLikeDuckDb() {
    deleted.registerIn(duckDb, "evo", "tt");
    TableDescription table =
        new TableDescription(
            TABLE,
            List.of(
                Column.of("id", ColumnKind.LONG),
                Column.of("category", ColumnKind.STRING),
                Column.of("amount", ColumnKind.DOUBLE),
                Column.of("quantity", ColumnKind.INT),
                Column.of("event_time", ColumnKind.TIMESTAMP),
                Column.of("event_day", ColumnKind.DATE),
                Column.of("flag", ColumnKind.BOOLEAN)));
    log.info("Random time-travel queries: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
    RandomQueryGenerator generator =
        new RandomQueryGenerator(table, ValueDomain.sample(duckDb, table, 12), SEED);
    long id = deleted.snapshotId().orElseThrow();
    List<String> failures = new ArrayList<>();
    for (int q = 0; q < RANDOM_QUERIES; q++) {
      GeneratedQuery query = generator.next();
      JsonNode response =
          broker.query(
              query.shelfmarkSql(), Optional.of(TIMEOUT), Map.of("snapshotId", Long.toString(id)));
      if (!response.path("exceptions").isEmpty()) {
        failures.add(query.shelfmarkSql() + ": " + response.path("exceptions"));
        continue;
      }
      if (query.shelfmarkSql().contains(" FROM ") && response.path("snapshotId").asLong() != id) {
        failures.add(query.shelfmarkSql() + ": answered snapshot " + response.path("snapshotId"));
      }
      ResultComparison.difference(
              datesAsText(duckDb.query(query.duckDbSql())),
              resultOf(response),
              query.ordered(),
              1e-9,
              query.approximateColumns())
          .ifPresent(difference -> failures.add(query.shelfmarkSql() + ": " + difference));
    }
    assertThat(failures).as("seed %s: random queries at snapshot %s", SEED, id).isEmpty();
  }

  @Test
  @Order(5)
  void anUnknownSnapshotIdIsRefusedListingTheSnapshotsKept() {
    JsonNode response =
        broker.query(
            "SELECT COUNT(*) FROM " + TABLE, Optional.of(TIMEOUT), Map.of("snapshotId", "42"));
    String message = error(response);
    assertThat(message)
        .startsWith("Cannot query evo.tt at snapshot 42: the table has no such snapshot")
        .contains(Long.toString(appended.snapshotId().orElseThrow()))
        .contains(Long.toString(currentId()));
    assertThat(response.path("exceptions").path(0).path("errorCode").asInt()).isEqualTo(700);
    assertThat(response.path("resultTable").path("rows")).isEmpty();
  }

  @Test
  @Order(6)
  void aTimeBeforeTheFirstSnapshotIsRefusedNamingTheFirst() {
    JsonNode response =
        broker.query(
            "SELECT COUNT(*) FROM " + TABLE,
            Optional.of(TIMEOUT),
            Map.of("asOfTimestamp", "2001-01-01T00:00:00Z"));
    assertThat(error(response))
        .startsWith(
            "Cannot query evo.tt as of 2001-01-01T00:00:00Z: that is before the oldest snapshot in its history, "
                + appended.snapshotId().orElseThrow());
  }

  @Test
  @Order(7)
  void malformedOrConflictingOptionsAreRefused() {
    assertThat(
            error(
                broker.query(
                    "SELECT COUNT(*) FROM " + TABLE,
                    Optional.of(TIMEOUT),
                    Map.of("asOfTimestamp", "yesterday"))))
        .startsWith(
            "Cannot use queryOptions asOfTimestamp=yesterday: it must be epoch milliseconds");
    assertThat(
            error(
                broker.query(
                    "SELECT COUNT(*) FROM " + TABLE,
                    Optional.of(TIMEOUT),
                    Map.of("snapshotId", "abc"))))
        .startsWith("Cannot use queryOptions snapshotId=abc: it must be an Iceberg snapshot id");
    assertThat(
            error(
                broker.query(
                    "SELECT COUNT(*) FROM " + TABLE,
                    Optional.of(TIMEOUT),
                    Map.of("snapshotId", "1", "asOfTimestamp", "1"))))
        .startsWith("Cannot use queryOptions snapshotId=1 together with asOfTimestamp=1");
  }

  /** Arrow's JDBC driver passes a connection property it does not know as a call header. */
  @Test
  @Order(8)
  void jdbcConnectionPropertyAnswersThePastSnapshot() throws Exception {
    long id = deleted.snapshotId().orElseThrow();
    deleted.registerIn(duckDb, "evo", "tt");
    String sql = "SELECT COUNT(*), SUM(quantity), MIN(id) FROM " + TABLE;
    try (java.sql.Connection connection =
            java.sql.DriverManager.getConnection(node.jdbcUrl() + "&snapshotId=" + id);
        java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet rows = statement.executeQuery(sql)) {
      assertThat(rows.next()).isTrue();
      List<Object> row = List.of(rows.getLong(1), rows.getLong(2), rows.getLong(3));
      ResultComparison.assertEquivalent(
          duckDb.query(sql),
          QueryResult.normalized(List.of("a", "b", "c"), List.of(row)),
          false,
          0);
    }
    try (java.sql.Connection connection =
            java.sql.DriverManager.getConnection(node.jdbcUrl() + "&snapshotId=42");
        java.sql.Statement statement = connection.createStatement()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.executeQuery(sql))
          .hasMessageContaining(
              "Cannot query evo.tt at snapshot 42: the table has no such snapshot");
    }
  }

  /** Flight SQL session options, kept by the session's cookie from statement to statement. */
  @Test
  @Order(9)
  void flightSqlSessionOptionsAnswerThePastSnapshotUntilCleared() throws Exception {
    String sql = "SELECT COUNT(*), SUM(quantity) FROM " + TABLE;
    try (org.apache.arrow.memory.BufferAllocator allocator =
            new org.apache.arrow.memory.RootAllocator();
        org.apache.arrow.flight.sql.FlightSqlClient client =
            new org.apache.arrow.flight.sql.FlightSqlClient(
                org.apache.arrow.flight.FlightClient.builder(
                        allocator,
                        org.apache.arrow.flight.Location.forGrpcInsecure(
                            "127.0.0.1", node.flightPort()))
                    .intercept(new org.apache.arrow.flight.client.ClientCookieMiddleware.Factory())
                    .build())) {
      long id = appended.snapshotId().orElseThrow();
      var result =
          client.setSessionOptions(
              new org.apache.arrow.flight.SetSessionOptionsRequest(
                  Map.of(
                      "snapshotId",
                      org.apache.arrow.flight.SessionOptionValueFactory.makeSessionOptionValue(
                          Long.toString(id)))));
      assertThat(result.hasErrors()).isFalse();
      appended.registerIn(duckDb, "evo", "tt");
      assertThat(flightRow(client, sql)).isEqualTo(duckDbRow(sql));
      // Refused values and names leave the session as it was.
      var refused =
          client.setSessionOptions(
              new org.apache.arrow.flight.SetSessionOptionsRequest(
                  Map.of(
                      "asOfTimestamp",
                      org.apache.arrow.flight.SessionOptionValueFactory.makeSessionOptionValue(
                          "yesterday"),
                      "snapshotTime",
                      org.apache.arrow.flight.SessionOptionValueFactory.makeSessionOptionValue(
                          "1"))));
      assertThat(refused.getErrors().get("asOfTimestamp").value)
          .isEqualTo(org.apache.arrow.flight.SetSessionOptionsResult.ErrorValue.INVALID_VALUE);
      assertThat(refused.getErrors().get("snapshotTime").value)
          .isEqualTo(org.apache.arrow.flight.SetSessionOptionsResult.ErrorValue.INVALID_NAME);
      assertThat(flightRow(client, sql)).isEqualTo(duckDbRow(sql));
      // An empty value clears the option: the served snapshot answers again.
      client.setSessionOptions(
          new org.apache.arrow.flight.SetSessionOptionsRequest(
              Map.of(
                  "snapshotId",
                  org.apache.arrow.flight.SessionOptionValueFactory.makeSessionOptionValue(""))));
      served.registerIn(duckDb, "evo", "tt");
      assertThat(flightRow(client, sql)).isEqualTo(duckDbRow(sql));
    }
  }

  private static List<Object> flightRow(
      org.apache.arrow.flight.sql.FlightSqlClient client, String sql) throws Exception {
    org.apache.arrow.flight.FlightInfo info = client.execute(sql);
    try (org.apache.arrow.flight.FlightStream stream =
        client.getStream(info.getEndpoints().get(0).getTicket())) {
      assertThat(stream.next()).isTrue();
      var root = stream.getRoot();
      List<Object> row = new ArrayList<>();
      for (var vector : root.getFieldVectors()) {
        row.add(((Number) vector.getObject(0)).longValue());
      }
      return row;
    }
  }

  private static List<Object> duckDbRow(String sql) {
    List<Object> row = new ArrayList<>();
    for (Object value : duckDb.query(sql).rows().getFirst()) {
      row.add(((Number) value).longValue());
    }
    return row;
  }

  @Test
  @Order(10)
  void queryCommandTakesSnapshotAndAsOf() throws Exception {
    long id = deleted.snapshotId().orElseThrow();
    String sql = "SELECT COUNT(*) FROM " + TABLE;
    JsonNode bySnapshot =
        runJson("query", sql, "--broker", node.url(), "--json", "--snapshot", Long.toString(id));
    assertThat(bySnapshot.path("snapshotId").asLong()).isEqualTo(id);
    JsonNode asOf =
        runJson(
            "query",
            sql,
            "--broker",
            node.url(),
            "--json",
            "--as-of",
            Instant.ofEpochMilli(committedAt(appended)).toString());
    assertThat(asOf.path("snapshotId").asLong()).isEqualTo(appended.snapshotId().orElseThrow());
    java.io.StringWriter output = new java.io.StringWriter();
    picocli.CommandLine command = io.shelfmark.cli.Shelfmark.commandLine();
    command.setOut(new java.io.PrintWriter(output));
    command.setErr(new java.io.PrintWriter(output));
    assertThat(command.execute("query", sql, "--broker", node.url(), "--as-of", "soon"))
        .isNotZero();
    assertThat(output.toString()).contains("Cannot use asOfTimestamp=soon");
  }

  private static JsonNode runJson(String... arguments) throws Exception {
    java.io.StringWriter output = new java.io.StringWriter();
    picocli.CommandLine command = io.shelfmark.cli.Shelfmark.commandLine();
    command.setOut(new java.io.PrintWriter(output));
    command.setErr(new java.io.PrintWriter(output));
    assertThat(command.execute(arguments)).as(output.toString()).isZero();
    return new com.fasterxml.jackson.databind.ObjectMapper().readTree(output.toString());
  }

  /** Runs last: it removes a data file of the older snapshots from the lake. */
  @Test
  @Order(100)
  void aPastSnapshotWhoseDataFileIsGoneIsRefusedNamingTheFile() throws Exception {
    Set<String> live =
        served.files().stream().map(ScenarioFile::location).collect(Collectors.toSet());
    // The overwrite replaced one file, of the first or the second append: the last snapshot
    // before it holds that file.
    ScenarioFile gone =
        appendedAgain.files().stream()
            .filter(file -> !live.contains(file.location()))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the overwrite replaced no file"));
    Files.delete(gone.localPath());
    JsonNode response =
        broker.query(
            "SELECT SUM(amount), COUNT(*) FROM " + TABLE,
            Optional.of(TIMEOUT),
            Map.of("snapshotId", Long.toString(appendedAgain.snapshotId().orElseThrow())));
    assertThat(error(response))
        .contains(gone.location().substring(gone.location().lastIndexOf('/') + 1));
    assertThat(response.path("exceptions").path(0).path("errorCode").asInt()).isEqualTo(920);
    assertThat(response.path("resultTable").path("rows")).isEmpty();
    assertThat(response.path("partialResult").asBoolean()).isFalse();
    // The served snapshot does not hold that file, and answers.
    JsonNode current =
        broker.query("SELECT SUM(amount), COUNT(*) FROM " + TABLE, Optional.of(TIMEOUT));
    assertThat(current.path("exceptions")).as(current.toString()).isEmpty();
  }

  private static void checkAll(ScenarioState state, Map<String, String> options, long expectedId) {
    state.registerIn(duckDb, "evo", "tt");
    for (String sql : QUERIES) {
      JsonNode response = broker.query(sql, Optional.of(TIMEOUT), options);
      assertThat(response.path("exceptions")).as(sql + " " + options).isEmpty();
      assertThat(response.path("snapshotId").asLong())
          .as(sql + " " + options)
          .isEqualTo(expectedId);
      try {
        ResultComparison.assertEquivalent(
            duckDb.query(sql), TestQuickstart.resultOf(response), sql.contains("ORDER BY"), 1e-9);
      } catch (AssertionError e) {
        throw new AssertionError(sql + " " + options + " at " + state + ": " + e.getMessage(), e);
      }
    }
  }

  /** The broker's answer, its JSON booleans as booleans (the HTTP API renders a DATE as text). */
  private static QueryResult resultOf(JsonNode response) {
    QueryResult result = TestQuickstart.resultOf(response);
    List<List<Object>> rows = new ArrayList<>();
    JsonNode json = response.path("resultTable").path("rows");
    for (int r = 0; r < result.rows().size(); r++) {
      List<Object> row = new ArrayList<>(result.rows().get(r));
      for (int c = 0; c < row.size(); c++) {
        if (json.path(r).path(c).isBoolean()) {
          row.set(c, json.path(r).path(c).asBoolean());
        }
      }
      rows.add(row);
    }
    return QueryResult.normalized(result.columns(), rows);
  }

  /** DuckDB's answer with its DATE values as the HTTP API writes them ({@code 2025-08-04}). */
  private static QueryResult datesAsText(QueryResult result) {
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : result.rows()) {
      List<Object> converted = new ArrayList<>(row.size());
      for (Object value : row) {
        converted.add(value instanceof java.time.LocalDate date ? date.toString() : value);
      }
      rows.add(converted);
    }
    return QueryResult.normalized(result.columns(), rows);
  }

  private static String error(JsonNode response) {
    assertThat(response.path("exceptions")).as(response.toString()).hasSize(1);
    return response.path("exceptions").path(0).path("message").asText();
  }

  private static long committedAt(ScenarioState state) {
    return scenario.table().snapshot(state.snapshotId().orElseThrow()).timestampMillis();
  }

  private static long currentId() {
    return served.snapshotId().orElseThrow();
  }
}
