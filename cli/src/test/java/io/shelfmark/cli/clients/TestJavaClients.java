package io.shelfmark.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinot's own Java clients, unchanged (org.apache.pinot pinot-java-client and pinot-jdbc-client
 * 1.2.0, run by the probe in a JVM of their own), against a real node: a broker list and controller
 * discovery, the multi-stage switch, the JDBC driver's metadata calls and queries. Their answers
 * are compared with the node's own over plain HTTP.
 */
@ExtendWith(SharedClientNode.class)
class TestJavaClients {
  @TempDir static Path dir;
  private static ClientNode node;
  private static JavaClientProbe probe;

  @BeforeAll
  static void start(ClientNode shared) throws Exception {
    node = shared;
    probe = JavaClientProbe.start(dir.resolve("probe.log"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (probe != null) {
      probe.close();
    }
  }

  @Test
  void javaClientFromHostListAnswersTheBenchmarkQueries() throws Exception {
    for (Map.Entry<String, String> query : ClientNode.BENCHMARK_QUERIES.entrySet()) {
      JsonNode answer = run("hostlist", "sql", query.getValue());
      assertThat(answer.has("error")).as(query.getKey() + ": " + answer).isFalse();
      assertThat(answer.get("numServersResponded").asInt())
          .isEqualTo(answer.get("numServersQueried").asInt());
      assertThat(rows(answer))
          .as(query.getKey())
          .isNotEmpty()
          .isEqualTo(ClientNode.rows(node.query(query.getValue(), Optional.empty())));
    }
  }

  @Test
  void javaClientFromControllerDiscoversTheBroker() throws Exception {
    // The selector behind fromController reads GET /tables/livebrokers.
    JsonNode brokers = run("brokers", "table", "obs.metrics");
    assertThat(brokers.has("error")).as(brokers.toString()).isFalse();
    assertThat(brokers.get("brokers")).hasSize(1);
    assertThat(brokers.get("brokers").get(0).asText()).isEqualTo(node.hostPort());
    assertThat(brokers.get("selected").asText()).isEqualTo(node.hostPort());

    String sql = ClientNode.BENCHMARK_QUERIES.get("Q1");
    JsonNode answer = run("controller", "sql", sql);
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(rows(answer)).isEqualTo(ClientNode.rows(node.query(sql, Optional.empty())));
  }

  @Test
  void multiStageSwitchPostsToQueryAndIsAnsweredTheSame() throws Exception {
    String sql = ClientNode.BENCHMARK_QUERIES.get("Q2");
    JsonNode answer = run("multistage", "sql", sql);
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(rows(answer)).isEqualTo(ClientNode.rows(node.query(sql, Optional.empty())));
  }

  @Test
  void javaClientSurfacesShelfmarksMessageAndPinotsCode() throws Exception {
    JsonNode answer = run("hostlist", "sql", "SELECT nope FROM obs.metrics");
    assertThat(answer.get("error").asText())
        .contains("Cannot resolve column 'nope'")
        .contains("710");
  }

  @Test
  void jdbcDriverListsTablesAndEveryColumn() throws Exception {
    JsonNode tables = run("jdbc-tables");
    assertThat(tables.has("error")).as(tables.toString()).isFalse();
    assertThat(texts(tables.get("tables"))).containsExactly("obs.metrics");

    JsonNode columns = run("jdbc-columns", "table", "obs.metrics");
    assertThat(columns.has("error")).as(columns.toString()).isFalse();
    List<String> listed = texts(columns.get("columns"));
    // Every column of the table, its map included; the time column last, as Pinot's schema lists
    // date-time columns after dimensions and metrics.
    assertThat(listed)
        .contains("metric STRING", "dimensions MAP", "org_id LONG")
        .hasSize(columnCount())
        .last()
        .isEqualTo("logical_timestamp LONG");
  }

  @Test
  void jdbcDriverQueries() throws Exception {
    // The driver appends a LIMIT to SQL without one: Q4 has none.
    String sql = ClientNode.BENCHMARK_QUERIES.get("Q4");
    JsonNode answer = run("jdbc-query", "sql", sql);
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(rows(answer))
        .isNotEmpty()
        .isEqualTo(ClientNode.rows(node.query(sql, Optional.empty())));
  }

  @Test
  void jdbcDriverSendsQueryOptionsAsSetStatements() throws Exception {
    // The JDBC driver passes "SET timeoutMs=...;" through as written (and appends a LIMIT).
    String sql = "SET timeoutMs=3000; SELECT COUNT(*) FROM obs.metrics";
    JsonNode answer = run("jdbc-query", "sql", sql);
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(rows(answer)).containsExactly(List.of(Long.toString(ClientNode.ROWS)));
  }

  private static JsonNode run(String op, String... keyValues) throws Exception {
    Map<String, String> command = new java.util.HashMap<>();
    command.put("op", op);
    command.put("address", node.hostPort());
    for (int i = 0; i < keyValues.length; i += 2) {
      command.put(keyValues[i], keyValues[i + 1]);
    }
    return probe.run(command);
  }

  private static int columnCount() {
    return node.query("SELECT * FROM obs.metrics LIMIT 0", Optional.empty())
        .path("resultTable")
        .path("dataSchema")
        .path("columnNames")
        .size();
  }

  private static List<List<String>> rows(JsonNode answer) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row : answer.path("rows")) {
      rows.add(texts(row));
    }
    return rows;
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(value -> texts.add(value.isNull() ? null : value.asText()));
    return texts;
  }
}
