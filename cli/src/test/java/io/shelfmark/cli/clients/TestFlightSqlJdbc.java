package io.shelfmark.cli.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Arrow's Flight SQL JDBC driver 18.3.0 — what DBeaver, Tableau, Metabase and plain Java programs
 * load — found by {@code java.sql.DriverManager} from its service file, unchanged, against a real
 * node's Flight SQL endpoint; its answers compared with the node's own over HTTP.
 */
@ExtendWith(SharedClientNode.class)
class TestFlightSqlJdbc {
  private static ClientNode node;
  private static Connection connection;

  @BeforeAll
  static void connect(ClientNode shared) throws SQLException {
    node = shared;
    connection = DriverManager.getConnection(node.jdbcUrl());
  }

  @AfterAll
  static void disconnect() throws SQLException {
    if (connection != null) {
      connection.close();
    }
  }

  @Test
  void urlIsTheDocumentedOne() {
    assertThat(node.jdbcUrl())
        .isEqualTo(
            "jdbc:arrow-flight-sql://127.0.0.1:" + node.flightPort() + "/?useEncryption=false");
  }

  @Test
  void benchmarkQueriesEqualHttpAnswers() throws SQLException {
    for (Map.Entry<String, String> query : ClientNode.BENCHMARK_QUERIES.entrySet()) {
      JsonNode http = node.query(query.getValue(), Optional.empty());
      try (Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery(query.getValue())) {
        assertThat(rows(rows)).as(query.getKey()).isNotEmpty().isEqualTo(httpRows(http));
      }
    }
  }

  @Test
  void columnsHaveExactTypes() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT org_id, metric, resolution, sum_rollup, COUNT(*) AS n FROM obs.metrics"
                    + " GROUP BY org_id, metric, resolution, sum_rollup LIMIT 1")) {
      ResultSetMetaData meta = rows.getMetaData();
      assertThat(meta.getColumnLabel(1)).isEqualTo("org_id");
      assertThat(meta.getColumnType(1)).isEqualTo(Types.BIGINT);
      assertThat(meta.getColumnType(2)).isEqualTo(Types.VARCHAR);
      assertThat(meta.getColumnType(3)).isEqualTo(Types.INTEGER);
      assertThat(meta.getColumnType(4)).isEqualTo(Types.DOUBLE);
      assertThat(meta.getColumnType(5)).isEqualTo(Types.BIGINT);
      assertThat(rows.next()).isTrue();
      assertThat(rows.getObject(1)).isInstanceOf(Long.class);
      assertThat(rows.getObject(3)).isInstanceOf(Integer.class);
    }
  }

  @Test
  void preparedStatementBindsParameters() throws SQLException {
    String sql =
        "SELECT metric, COUNT(*) AS n FROM obs.metrics WHERE org_id = ? AND resolution = ?"
            + " GROUP BY metric ORDER BY metric";
    String inlined =
        "SELECT metric, COUNT(*) AS n FROM obs.metrics WHERE org_id = 184833768 AND resolution ="
            + " 15000 GROUP BY metric ORDER BY metric";
    List<List<Object>> expected = httpRows(node.query(inlined, Optional.empty()));
    assertThat(expected).isNotEmpty();
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      // Each parameter is declared as the column it is compared with: BIGINT, INT.
      assertThat(statement.getParameterMetaData().getParameterType(1))
          .isEqualTo(java.sql.Types.BIGINT);
      assertThat(statement.getParameterMetaData().getParameterType(2))
          .isEqualTo(java.sql.Types.INTEGER);
      statement.setLong(1, 184833768L);
      statement.setInt(2, 15000);
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows(rows)).isEqualTo(expected);
      }
      // The same statement again, with other values (the driver converts an int to the BIGINT).
      statement.setInt(1, 1);
      statement.setLong(2, 15000L);
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows(rows))
            .isEqualTo(httpRows(node.query(inlined.replace("184833768", "1"), Optional.empty())));
      }
    }
  }

  @Test
  void parameterWithAQuoteIsAValueNotSql() throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT COUNT(*) FROM obs.metrics WHERE metric = ?")) {
      statement.setString(1, "it's");
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isZero();
      }
      // A classic injection: as a value it matches no metric, where as SQL it would match all.
      statement.setString(1, "x' OR 'a' = 'a");
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isZero();
      }
      statement.setString(1, "tk_cache");
      try (ResultSet rows = statement.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1))
            .isPositive()
            .isEqualTo(
                node.query(
                        "SELECT COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache'",
                        Optional.empty())
                    .path("resultTable")
                    .path("rows")
                    .get(0)
                    .get(0)
                    .asLong());
      }
    }
  }

  @Test
  void metadataListsTablesAndColumns() throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    assertThat(meta.getDatabaseProductName()).isEqualTo("Shelfmark");
    List<String> tables = new ArrayList<>();
    try (ResultSet rows = meta.getTables(null, null, "%", null)) {
      while (rows.next()) {
        tables.add(rows.getString("TABLE_SCHEM") + "." + rows.getString("TABLE_NAME"));
        assertThat(rows.getString("TABLE_TYPE")).isEqualTo("TABLE");
      }
    }
    assertThat(tables).containsExactly("obs.metrics");
    Map<String, Integer> columns = new LinkedHashMap<>();
    try (ResultSet rows = meta.getColumns(null, "obs", "metrics", "%")) {
      while (rows.next()) {
        columns.put(rows.getString("COLUMN_NAME"), rows.getInt("DATA_TYPE"));
      }
    }
    assertThat(columns)
        .containsEntry("metric", Types.VARCHAR)
        .containsEntry("org_id", Types.BIGINT)
        .containsEntry("resolution", Types.INTEGER)
        .containsEntry("sum_rollup", Types.DOUBLE)
        .containsKey("dimensions");
    try (ResultSet rows = meta.getSchemas()) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getString("TABLE_SCHEM")).isEqualTo("obs");
    }
  }

  @Test
  void failingQueryCarriesShelfmarksMessageAndCode() {
    assertThatThrownBy(
            () -> {
              try (Statement statement = connection.createStatement();
                  ResultSet rows = statement.executeQuery("SELECT nope FROM obs.metrics")) {
                rows.next();
              }
            })
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Cannot resolve column 'nope'")
        .hasMessageContaining("710 UNKNOWN_COLUMN");
  }

  @Test
  void connectionIsUsableAfterAnError() throws SQLException {
    assertThatThrownBy(() -> connection.createStatement().executeQuery("SELEC 1"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("SQL_PARSING");
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT 1")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(1);
    }
  }

  /** Rows read through JDBC: numbers as doubles (JSON has one number type), the rest as text. */
  private static List<List<Object>> rows(ResultSet rows) throws SQLException {
    List<List<Object>> values = new ArrayList<>();
    int columns = rows.getMetaData().getColumnCount();
    while (rows.next()) {
      List<Object> row = new ArrayList<>();
      for (int c = 1; c <= columns; c++) {
        Object value = rows.getObject(c);
        row.add(
            value == null
                ? null
                : value instanceof Number number
                    ? (Object) number.doubleValue()
                    : value.toString());
      }
      values.add(row);
    }
    return values;
  }

  private static List<List<Object>> httpRows(JsonNode answer) {
    assertThat(answer.path("exceptions")).as(answer.toString()).isEmpty();
    List<List<Object>> values = new ArrayList<>();
    for (JsonNode row : answer.path("resultTable").path("rows")) {
      List<Object> converted = new ArrayList<>();
      for (JsonNode value : row) {
        converted.add(
            value.isNull() ? null : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      values.add(converted);
    }
    return values;
  }
}
