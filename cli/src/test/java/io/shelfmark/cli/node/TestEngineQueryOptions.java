package io.shelfmark.cli.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.quickstart.DenseStarTreeConfig;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.SessionOptionValueFactory;
import org.apache.arrow.flight.SetSessionOptionsRequest;
import org.apache.arrow.flight.SetSessionOptionsResult;
import org.apache.arrow.flight.client.ClientCookieMiddleware;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's switches ({@code useStarTree}, {@code usePageStatistics}, {@code chunkReads}) sent
 * as Pinot's HTTP {@code queryOptions} reach the engine as {@code SET} and {@code OPTION} do, over
 * real HTTP on the quickstart's all-in-one node (20,000 rows, the star-tree kept per second): each
 * takes the path it selects, seen in the response's statistics or its EXPLAIN ANALYZE, and answers
 * the rows of a run without it and of DuckDB; the statement's own option wins; a value a switch
 * does not take is refused naming it; an option name Shelfmark does not know is ignored, as Pinot
 * ignores it.
 */
class TestEngineQueryOptions {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String Q2 = Quickstart.BENCHMARK_QUERIES.get("Q2");

  /** One org's files match whole: every page's MIN comes from its statistics, none is read. */
  private static final String MIN_OF_ONE_ORG =
      "SELECT MIN(sum_rollup) AS low_sum, MIN(latest_rollup) AS low_latest, COUNT(*) AS n"
          + " FROM obs.metrics WHERE org_id = 184833768";

  /** A residual term over an index's candidates: partly selected chunks of sum_rollup. */
  private static final String SCATTERED =
      "SELECT COUNT(*) AS n, SUM(sum_rollup) AS total FROM obs.metrics"
          + " WHERE metric = 'tk_cache' AND sum_rollup * 2 > 1";

  private static Path directory;
  private static Quickstart quickstart;
  private static BrokerClient broker;
  private static DuckDbOracle duckDb;

  @BeforeAll
  static void start() throws Exception {
    directory = Files.createTempDirectory("shelfmark-query-options-test");
    quickstart =
        Quickstart.start(
            new Quickstart.Options(20_000, 7, directory, 0, true)
                .withTableConfig(DenseStarTreeConfig.load()),
            new PrintStream(OutputStream.nullOutputStream(), true, UTF_8));
    broker = new BrokerClient(quickstart.url());
    duckDb = DuckDbOracle.open();
    List<Path> files = new ArrayList<>();
    for (DataFileInfo file : quickstart.table().snapshot().dataFiles()) {
      files.add(quickstart.lakeDirectory().resolve(file.path().substring("s3://".length())));
    }
    duckDb.registerTable("obs.metrics", files);
  }

  @AfterAll
  static void stop() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (quickstart != null) {
      quickstart.close();
    }
  }

  @Test
  void useStarTreeInQueryOptionsAnswersFromTheRows() {
    JsonNode fromTree = answer(Q2, Map.of());
    assertThat(fromTree.path("numSegmentsStarTree").asInt()).as(fromTree.toString()).isPositive();
    JsonNode fromRows = answer(Q2, Map.of("useStarTree", "false"));
    assertThat(fromRows.path("numSegmentsStarTree").asInt()).as(fromRows.toString()).isZero();
    assertThat(fromRows.path("numDocsScanned").asLong()).isPositive();
    assertSameRows(fromRows, fromTree, TestQuickstart.DUCKDB_QUERIES.get("Q2"));
    // The JSON object form, with a JSON boolean, is the same switch.
    JsonNode asObject = post(Q2, JSON.createObjectNode().put("useStarTree", false));
    assertThat(asObject.path("exceptions")).as(asObject.toString()).isEmpty();
    assertThat(asObject.path("numSegmentsStarTree").asInt()).isZero();
    assertSameRows(asObject, fromTree, TestQuickstart.DUCKDB_QUERIES.get("Q2"));
  }

  @Test
  void usePageStatisticsInQueryOptionsReadsThePages() {
    JsonNode fromStatistics = answer(MIN_OF_ONE_ORG, Map.of());
    assertThat(fromStatistics.path("numPagesFromStatistics").asLong())
        .as(fromStatistics.toString())
        .isPositive();
    JsonNode fromPages = answer(MIN_OF_ONE_ORG, Map.of("usePageStatistics", "false"));
    assertThat(fromPages.path("numPagesFromStatistics").asLong()).as(fromPages.toString()).isZero();
    assertSameRows(fromPages, fromStatistics, MIN_OF_ONE_ORG);
  }

  @Test
  void chunkReadsInQueryOptionsChoosesHowChunksAreFetched() {
    JsonNode byCost = answer(SCATTERED, Map.of());
    for (String mode : List.of("pages", "whole")) {
      JsonNode forced = answer(SCATTERED, Map.of("chunkReads", mode));
      assertSameRows(forced, byCost, SCATTERED);
      // The pages may be in the page cache by now, so what the read fetched whole may be nothing:
      // the mode the reads ran under is in EXPLAIN ANALYZE's figures.
      assertThat(readModes("EXPLAIN ANALYZE " + SCATTERED, Map.of("chunkReads", mode)))
          .containsOnly(mode.toUpperCase(java.util.Locale.ROOT));
    }
    assertThat(answer(SCATTERED, Map.of("chunkReads", "pages")).path("numChunksReadWhole").asLong())
        .isZero();
    assertThat(readModes("EXPLAIN ANALYZE " + SCATTERED, Map.of())).containsOnly("COST");
  }

  @Test
  void theStatementsOwnOptionWinsOverQueryOptions() {
    JsonNode option = answer(Q2 + " OPTION(useStarTree=true)", Map.of("useStarTree", "false"));
    assertThat(option.path("numSegmentsStarTree").asInt()).as(option.toString()).isPositive();
    JsonNode set = answer("SET useStarTree = false; " + Q2, Map.of("useStarTree", "true"));
    assertThat(set.path("numSegmentsStarTree").asInt()).as(set.toString()).isZero();
    assertSameRows(set, option, TestQuickstart.DUCKDB_QUERIES.get("Q2"));
    // A switch the statement does not set still comes from queryOptions.
    JsonNode mixed =
        answer("SET useStarTree = true; " + MIN_OF_ONE_ORG, Map.of("usePageStatistics", "false"));
    assertThat(mixed.path("numPagesFromStatistics").asLong()).isZero();
    assertThat(
            readModes(
                "EXPLAIN ANALYZE " + SCATTERED + " OPTION(chunkReads=whole)",
                Map.of("chunkReads", "pages")))
        .containsOnly("WHOLE");
  }

  @Test
  void aValueASwitchDoesNotTakeIsRefusedNamingIt() {
    assertThat(error(broker.query(Q2, Optional.of(TIMEOUT), Map.of("useStarTree", "fasle"))))
        .isEqualTo("Cannot use queryOptions useStarTree=fasle: it must be true or false");
    assertThat(error(broker.query(Q2, Optional.of(TIMEOUT), Map.of("chunkReads", "all"))))
        .isEqualTo("Cannot use queryOptions chunkReads=all: it must be cost, pages or whole");
    assertThat(error(post(Q2, JSON.createObjectNode().put("usePageStatistics", 0))))
        .isEqualTo("Cannot use queryOptions usePageStatistics=0: it must be true or false");
    // In the SQL text as well: before, anything but "false" silently left the switch on.
    assertThat(error(broker.query(Q2 + " OPTION(useStarTree=no)", Optional.of(TIMEOUT))))
        .isEqualTo(
            "Cannot use query option useStarTree=no at line 1, column "
                + (Q2.length() + 9)
                + ": it must be true or false (for example OPTION(useStarTree=false))");
    assertThat(error(broker.query("SET chunkReads = 'all';\n" + Q2, Optional.of(TIMEOUT))))
        .startsWith("Cannot use query option chunkReads=all at line 1, column 1:")
        .endsWith(": it must be cost, pages or whole (for example OPTION(chunkReads=whole))");
  }

  @Test
  void anOptionNameShelfmarkDoesNotKnowIsIgnored() {
    // Pinot ignores options it does not know; a misspelt name is one of them.
    JsonNode answered = answer(Q2, Map.of("useStarTrees", "false", "someClientOption", "x"));
    assertThat(answered.path("numSegmentsStarTree").asInt()).isPositive();
  }

  /**
   * Over Flight SQL the switches are connection properties (Arrow's JDBC driver sends those it does
   * not know as call headers) or session options; EXPLAIN ANALYZE's text shows the path taken.
   */
  @Test
  void flightSqlHeadersAndSessionOptionsSetTheSwitches() throws Exception {
    String explain = "EXPLAIN ANALYZE " + Q2;
    assertThat(jdbcPlan(quickstart.jdbcUrl(), explain)).contains("star-tree (");
    String off = quickstart.jdbcUrl() + "&useStarTree=false";
    assertThat(jdbcPlan(off, explain)).doesNotContain("star-tree (");
    try (Connection connection = DriverManager.getConnection(off);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(Q2)) {
      assertThat(rows.next()).isTrue();
      double expected =
          ((Number)
                  duckDb
                      .query(TestQuickstart.DUCKDB_QUERIES.get("Q2"))
                      .rows()
                      .getFirst()
                      .getFirst())
              .doubleValue();
      assertThat(rows.getDouble(1)).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-6));
    }
    // The statement's own option wins over the connection's.
    assertThat(jdbcPlan(off, explain + " OPTION(useStarTree=true)")).contains("star-tree (");
    try (Connection connection =
            DriverManager.getConnection(quickstart.jdbcUrl() + "&useStarTree=fasle");
        Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeQuery(Q2))
          .hasMessageContaining(
              "Cannot use query option useStarTree=fasle: it must be true or false");
    }
    try (BufferAllocator allocator = new RootAllocator();
        FlightSqlClient client =
            new FlightSqlClient(
                FlightClient.builder(
                        allocator,
                        Location.forGrpcInsecure("127.0.0.1", quickstart.node().flightPort()))
                    .intercept(new ClientCookieMiddleware.Factory())
                    .build())) {
      SetSessionOptionsResult set =
          client.setSessionOptions(
              new SetSessionOptionsRequest(
                  Map.of("useStarTree", SessionOptionValueFactory.makeSessionOptionValue(false))));
      assertThat(set.hasErrors()).isFalse();
      assertThat(flightPlan(client, explain)).doesNotContain("star-tree (");
      SetSessionOptionsResult refused =
          client.setSessionOptions(
              new SetSessionOptionsRequest(
                  Map.of("chunkReads", SessionOptionValueFactory.makeSessionOptionValue("all"))));
      assertThat(refused.getErrors().get("chunkReads").value)
          .isEqualTo(SetSessionOptionsResult.ErrorValue.INVALID_VALUE);
      client.setSessionOptions(
          new SetSessionOptionsRequest(
              Map.of("useStarTree", SessionOptionValueFactory.makeSessionOptionValue(""))));
      assertThat(flightPlan(client, explain)).contains("star-tree (");
    }
  }

  /** The PLAN text of {@code sql} run through Arrow's JDBC driver at {@code url}. */
  private static String jdbcPlan(String url, String sql) throws Exception {
    StringBuilder plan = new StringBuilder();
    try (Connection connection = DriverManager.getConnection(url);
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        plan.append(rows.getString(1)).append('\n');
      }
    }
    return plan.toString();
  }

  /** The PLAN text of {@code sql} run through {@code client}'s session. */
  private static String flightPlan(FlightSqlClient client, String sql) throws Exception {
    StringBuilder plan = new StringBuilder();
    FlightInfo info = client.execute(sql);
    try (FlightStream stream = client.getStream(info.getEndpoints().getFirst().getTicket())) {
      while (stream.next()) {
        for (int row = 0; row < stream.getRoot().getRowCount(); row++) {
          plan.append(stream.getRoot().getVector(0).getObject(row)).append('\n');
        }
      }
    }
    return plan.toString();
  }

  /** The query's answer, which must have no error. */
  private static JsonNode answer(String sql, Map<String, String> options) {
    JsonNode response = broker.query(sql, Optional.of(TIMEOUT), options);
    assertThat(response.path("exceptions")).as(sql + " -> " + response).isEmpty();
    return response;
  }

  /** The {@code chunkReads} mode of each file group of an EXPLAIN ANALYZE that read pages. */
  private static List<String> readModes(String sql, Map<String, String> options) {
    JsonNode analyzed = answer(sql, options);
    List<String> modes = new ArrayList<>();
    for (JsonNode group : analyzed.path("explain").path("fileGroups")) {
      JsonNode chunks = group.path("chunkReads");
      if (chunks.isObject()) {
        modes.add(chunks.path("mode").asText());
      }
    }
    assertThat(modes).as(analyzed.toString()).isNotEmpty();
    return modes;
  }

  /** {@code actual} has the rows of {@code other} and of DuckDB's run of {@code duckDbSql}. */
  private static void assertSameRows(JsonNode actual, JsonNode other, String duckDbSql) {
    ResultComparison.assertEquivalent(
        TestQuickstart.resultOf(other),
        TestQuickstart.resultOf(actual),
        true,
        ResultComparison.DEFAULT_TOLERANCE);
    ResultComparison.assertEquivalent(
        duckDb.query(duckDbSql),
        TestQuickstart.resultOf(actual),
        true,
        ResultComparison.DEFAULT_TOLERANCE);
  }

  /** {@code POST /query/sql} with {@code queryOptions} as a JSON object. */
  private static JsonNode post(String sql, ObjectNode options) {
    ObjectNode body = JSON.createObjectNode().put("sql", sql);
    body.set("queryOptions", options);
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          client.send(
              HttpRequest.newBuilder(URI.create(quickstart.url() + "/query/sql"))
                  .timeout(TIMEOUT)
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body.toString(), UTF_8))
                  .build(),
              HttpResponse.BodyHandlers.ofString(UTF_8));
      return JSON.readTree(response.body());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String error(JsonNode response) {
    assertThat(response.path("exceptions")).as(response.toString()).hasSize(1);
    return response.path("exceptions").path(0).path("message").asText();
  }
}
