package io.shelfmark.cli.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * pinotdb 9.2.2 — the Python DB-API Superset and notebooks use — and its SQLAlchemy dialect,
 * unchanged, against a real node, with default settings. Runs the Python of the venv bin/test
 * builds from cli/src/test/python/requirements.txt (passed as {@code shelfmark.python}).
 */
@ExtendWith(SharedClientNode.class)
class TestPythonClients {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PROBE = Path.of("src/test/python/pinotdb_probe.py");

  @TempDir static Path dir;
  private static ClientNode node;
  private static String python;

  @BeforeAll
  static void start(ClientNode shared) throws Exception {
    python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the Python client tests: no Python with pinotdb"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
    node = shared;
  }

  @Test
  void dbApiAnswersTheBenchmarkQueriesWithDefaultSettings() throws Exception {
    for (Map.Entry<String, String> query : ClientNode.BENCHMARK_QUERIES.entrySet()) {
      JsonNode answer = run("dbapi", "sql", query.getValue());
      assertThat(answer.has("error")).as(query.getKey() + ": " + answer).isFalse();
      assertThat(values(answer.get("rows")))
          .as(query.getKey())
          .isNotEmpty()
          .isEqualTo(
              values(
                  node.query(query.getValue(), Optional.empty()).path("resultTable").path("rows")));
    }
  }

  @Test
  void dbApiWithDatabaseQueriesTheUnqualifiedName() throws Exception {
    // pinotdb lists obs.metrics as "metrics" and sends the namespace as its database header.
    String sql = ClientNode.BENCHMARK_QUERIES.get("Q2");
    JsonNode answer = run("dbapi", "sql", sql.replace("obs.metrics", "metrics"), "database", "obs");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(values(answer.get("rows")))
        .isEqualTo(values(node.query(sql, Optional.empty()).path("resultTable").path("rows")));
  }

  @Test
  void dbApiAnswersASupersetTimeGrainQuery() throws Exception {
    // The shape of Superset's Pinot time-series SQL: its PT1M grain expression on a BIGINT epoch
    // millis column, grouped, over the dashboard's range, aggregated as a chart metric.
    String grain = "CAST(DATE_TRUNC('minute', CAST(logical_timestamp AS TIMESTAMP)) AS TIMESTAMP)";
    String range = "logical_timestamp >= 1754226000000 AND logical_timestamp < 1754229600000";
    String sql =
        "SELECT "
            + grain
            + " AS __timestamp, SUM(sum_rollup) AS \"SUM(sum_rollup)\" FROM metrics WHERE "
            + range
            + " GROUP BY "
            + grain
            + " ORDER BY \"SUM(sum_rollup)\" DESC LIMIT 10000";
    JsonNode answer = run("dbapi", "sql", sql, "database", "obs");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    double total = 0;
    for (JsonNode row : answer.get("rows")) {
      // pinotdb parses TIMESTAMP values into datetimes: whole minutes.
      assertThat(row.get(0).asText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:00");
      total += row.get(1).asDouble();
    }
    double expected =
        node.query("SELECT SUM(sum_rollup) FROM obs.metrics WHERE " + range, Optional.empty())
            .path("resultTable")
            .path("rows")
            .get(0)
            .get(0)
            .asDouble();
    assertThat(answer.get("rows")).isNotEmpty();
    assertThat(total).isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1e-9));
  }

  @Test
  void dbApiSurfacesShelfmarksMessage() throws Exception {
    JsonNode answer = run("dbapi", "sql", "SELECT nope FROM obs.metrics");
    assertThat(answer.get("error").asText())
        .startsWith("DatabaseError")
        .contains("Cannot resolve column 'nope'")
        .contains("710")
        .doesNotContain("timed out");
  }

  /** pinotdb's {@code cursor.execute(sql, queryOptions="...")}, which Superset users set. */
  @Test
  void dbApiPassesTheEngineSwitchesInQueryOptions() throws Exception {
    String sql = ClientNode.BENCHMARK_QUERIES.get("Q2");
    JsonNode fromRows = run("dbapi", "sql", sql, "queryOptions", "useStarTree=false");
    assertThat(fromRows.has("error")).as(fromRows.toString()).isFalse();
    assertThat(values(fromRows.get("rows")))
        .isNotEmpty()
        .isEqualTo(values(node.query(sql, Optional.empty()).path("resultTable").path("rows")));
    // The option reached the broker: a value it does not take is refused, as pinotdb shows it.
    JsonNode refused = run("dbapi", "sql", sql, "queryOptions", "useStarTree=fasle");
    assertThat(refused.path("error").asText())
        .as(refused.toString())
        .startsWith("ProgrammingError")
        .contains("400")
        .contains("useStarTree=fasle");
  }

  @Test
  void dialectListsTablesAndEveryColumn() throws Exception {
    JsonNode answer = run("inspect", "database", "obs");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(answer.get("tables")).hasSize(1);
    assertThat(answer.get("tables").get(0).asText()).isEqualTo("metrics");
    List<String> columns = new ArrayList<>();
    answer.get("columns").get("metrics").forEach(column -> columns.add(column.asText()));
    int tableColumns =
        node.query("SELECT * FROM obs.metrics LIMIT 0", Optional.empty())
            .path("resultTable")
            .path("dataSchema")
            .path("columnNames")
            .size();
    assertThat(columns)
        .hasSize(tableColumns)
        .contains("metric String", "org_id BigInteger", "dimensions BLOB", "sum_rollup Numeric");
  }

  @Test
  void dialectCoreSelectOnTheReflectedTable() throws Exception {
    JsonNode answer =
        run("core-select", "database", "obs", "table", "metrics", "where_org_id", "184833768");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    String sql =
        "SELECT metric, COUNT(*) AS n, SUM(sum_rollup) AS s FROM obs.metrics"
            + " WHERE org_id = 184833768 GROUP BY metric ORDER BY metric";
    // The dialect types a DOUBLE column as Numeric, so SQLAlchemy hands SUM back as a Decimal of
    // scale 10 (Pinot's answer is the same double): compared to ten decimal places.
    assertThat(decimals(answer.get("rows")))
        .isNotEmpty()
        .isEqualTo(decimals(node.query(sql, Optional.empty()).path("resultTable").path("rows")));
  }

  @Test
  void dialectPingAndSelectWithoutFrom() throws Exception {
    // do_ping sends SELECT 1: Superset's "Test connection".
    JsonNode answer = run("ping");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(answer.get("ping").asBoolean()).isTrue();
    JsonNode one = run("dbapi", "sql", "SELECT 1");
    assertThat(one.get("rows").get(0).get(0).asInt()).isEqualTo(1);
  }

  @Test
  void dbApiAnswersSupersetsTimeGrainQueryWithAnOptionClause() throws Exception {
    // The SQL Superset's Pinot engine spec generates for an hourly time series (its
    // _time_grain_expressions), on the table as pinotdb lists it, with pinotdb's OPTION clause.
    String grain = "CAST(DATE_TRUNC('hour', CAST(logical_timestamp AS TIMESTAMP)) AS TIMESTAMP)";
    String range =
        " WHERE logical_timestamp >= 1754222400000 AND logical_timestamp < 1754233200000";
    String sql =
        "SELECT "
            + grain
            + " AS __timestamp, SUM(sum_rollup) AS \"SUM(sum_rollup)\" FROM metrics"
            + range
            + " GROUP BY "
            + grain
            + " ORDER BY __timestamp LIMIT 10000 OPTION(timeoutMs=20000)";
    JsonNode answer = run("dbapi", "sql", sql, "database", "obs");
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(answer.get("rows")).isNotEmpty();
    double total = 0;
    for (JsonNode row : answer.get("rows")) {
      assertThat(row.get(0).asText()).endsWith(":00:00");
      total += row.get(1).asDouble();
    }
    double expected =
        node.query("SELECT SUM(sum_rollup) FROM obs.metrics" + range, Optional.empty())
            .path("resultTable")
            .path("rows")
            .get(0)
            .get(0)
            .asDouble();
    assertThat(total).isCloseTo(expected, org.assertj.core.data.Percentage.withPercentage(1e-9));
  }

  /** Rows with numbers as numbers: pinotdb's floats and the node's JSON doubles compare equal. */
  private static List<List<Object>> values(JsonNode rows) {
    List<List<Object>> values = new ArrayList<>();
    for (JsonNode row : rows) {
      List<Object> converted = new ArrayList<>();
      for (JsonNode value : row) {
        converted.add(
            value.isNull() ? null : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      values.add(converted);
    }
    return values;
  }

  /** Rows with every number, or numeric text, rounded to ten decimal places. */
  private static List<List<Object>> decimals(JsonNode rows) {
    List<List<Object>> values = new ArrayList<>();
    for (JsonNode row : rows) {
      List<Object> converted = new ArrayList<>();
      for (JsonNode value : row) {
        String text = value.asText();
        converted.add(
            value.isNumber() || text.matches("-?[0-9.]+(E-?[0-9]+)?")
                ? new BigDecimal(text).setScale(10, RoundingMode.HALF_EVEN)
                : text);
      }
      values.add(converted);
    }
    return values;
  }

  private static JsonNode run(String op, String... keyValues) throws IOException {
    Map<String, Object> command = new HashMap<>();
    command.put("op", op);
    command.put("host", "127.0.0.1");
    command.put("port", node.port());
    for (int i = 0; i < keyValues.length; i += 2) {
      command.put(keyValues[i], keyValues[i + 1]);
    }
    Path log = Files.createTempFile(dir, "pinotdb", ".log");
    Process process =
        new ProcessBuilder(python, PROBE.toAbsolutePath().toString())
            .redirectError(log.toFile())
            .start();
    process.getOutputStream().write(JSON.writeValueAsBytes(command));
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException("pinotdb probe did not finish: " + command);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running the pinotdb probe", e);
    }
    if (out.isBlank()) {
      throw new IllegalStateException(
          "pinotdb probe printed nothing for " + command + ": " + Files.readString(log));
    }
    return JSON.readTree(out);
  }
}
