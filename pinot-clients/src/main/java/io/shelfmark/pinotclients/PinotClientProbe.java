package io.shelfmark.pinotclients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.ResultSetMetaData;
import java.util.List;
import java.util.Properties;
import org.apache.pinot.client.Connection;
import org.apache.pinot.client.ConnectionFactory;
import org.apache.pinot.client.ControllerBasedBrokerSelector;
import org.apache.pinot.client.ExecutionStats;
import org.apache.pinot.client.JsonAsyncHttpPinotClientTransportFactory;
import org.apache.pinot.client.ResultSet;
import org.apache.pinot.client.ResultSetGroup;

/**
 * Runs Pinot's Java clients as a user program would, one command per input line, and prints what
 * they returned, one JSON line per command: the test that starts this JVM (cli's TestJavaClients)
 * compares it with the node's own answers.
 *
 * <p>A command is a JSON object: {@code op} (below), {@code address} ({@code host:port} of the
 * broker or controller) and {@code sql} or {@code table}. The answer holds {@code rows} (values as
 * text), {@code tables}, {@code columns} or {@code brokers}, or {@code error} with the client's
 * exception message (causes included) when the client threw.
 *
 * <pre>
 * hostlist    ConnectionFactory.fromHostList(address).execute(sql)
 * controller  ConnectionFactory.fromController(address).execute(sql)
 * brokers     the brokers a ControllerBasedBrokerSelector discovers, and the one it picks for table
 * multistage  fromHostList with useMultistageEngine=true (POST /query), execute(sql)
 * jdbc-tables DatabaseMetaData.getTables(null, null, "%", null) of jdbc:pinot://address
 * jdbc-columns DatabaseMetaData.getColumns(null, null, table, null)
 * jdbc-query  Statement.executeQuery(sql)
 * </pre>
 */
public final class PinotClientProbe {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PinotClientProbe() {}

  public static void main(String[] args) throws Exception {
    // The clients log to stdout through their bindings; answers go to a stream of their own.
    PrintStream answers = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out));
    System.setOut(System.err);
    BufferedReader input =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = input.readLine(); line != null; line = input.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode command = JSON.readTree(line);
      ObjectNode answer = JSON.createObjectNode();
      try {
        run(command, answer);
      } catch (Exception e) {
        answer.removeAll();
        answer.put("error", messages(e));
      }
      answers.println(JSON.writeValueAsString(answer));
      answers.flush();
    }
  }

  private static void run(JsonNode command, ObjectNode answer) throws Exception {
    String address = command.path("address").asText();
    String sql = command.path("sql").asText();
    switch (command.path("op").asText()) {
      // Connections of the factory's default transport share it: closing one closes it for all,
      // so a program keeps them open, as this probe does.
      case "hostlist" -> execute(ConnectionFactory.fromHostList(address), sql, answer, false);
      case "controller" -> execute(ConnectionFactory.fromController(address), sql, answer, false);
      case "multistage" -> {
        Properties properties = new Properties();
        properties.setProperty("useMultistageEngine", "true");
        execute(
            ConnectionFactory.fromHostList(
                properties,
                List.of(address),
                new JsonAsyncHttpPinotClientTransportFactory()
                    .withConnectionProperties(properties)
                    .buildTransport()),
            sql,
            answer,
            true);
      }
      case "brokers" -> {
        ControllerBasedBrokerSelector selector =
            new ControllerBasedBrokerSelector(new Properties(), address);
        try {
          ArrayNode brokers = answer.putArray("brokers");
          selector.getBrokers().forEach(brokers::add);
          answer.put("selected", selector.selectBroker(command.path("table").asText()));
        } finally {
          selector.close();
        }
      }
      case "jdbc-tables" -> {
        try (java.sql.Connection jdbc = DriverManager.getConnection("jdbc:pinot://" + address);
            java.sql.ResultSet rs = jdbc.getMetaData().getTables(null, null, "%", null)) {
          ArrayNode tables = answer.putArray("tables");
          while (rs.next()) {
            tables.add(rs.getString("TABLE_NAME"));
          }
        }
      }
      case "jdbc-columns" -> {
        try (java.sql.Connection jdbc = DriverManager.getConnection("jdbc:pinot://" + address);
            java.sql.ResultSet rs =
                jdbc.getMetaData().getColumns(null, null, command.path("table").asText(), null)) {
          ArrayNode columns = answer.putArray("columns");
          while (rs.next()) {
            columns.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME"));
          }
        }
      }
      case "jdbc-query" -> {
        try (java.sql.Connection jdbc = DriverManager.getConnection("jdbc:pinot://" + address);
            java.sql.Statement statement = jdbc.createStatement();
            java.sql.ResultSet rs = statement.executeQuery(sql)) {
          ResultSetMetaData meta = rs.getMetaData();
          ArrayNode rows = answer.putArray("rows");
          while (rs.next()) {
            ArrayNode row = rows.addArray();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
              row.add(rs.getString(i));
            }
          }
        }
      }
      default -> throw new IllegalArgumentException("Cannot run op: " + command.path("op"));
    }
  }

  private static void execute(
      Connection connection, String sql, ObjectNode answer, boolean closeAfter) {
    try {
      ResultSetGroup group = connection.execute(sql);
      ExecutionStats stats = group.getExecutionStats();
      answer.put("numServersQueried", stats.getNumServersQueried());
      answer.put("numServersResponded", stats.getNumServersResponded());
      ArrayNode rows = answer.putArray("rows");
      ResultSet result = group.getResultSet(0);
      for (int row = 0; row < result.getRowCount(); row++) {
        ArrayNode values = rows.addArray();
        for (int column = 0; column < result.getColumnCount(); column++) {
          values.add(result.getString(row, column));
        }
      }
    } finally {
      if (closeAfter) {
        connection.close();
      }
    }
  }

  /** The exception's message and its causes', as a user sees them in a stack trace. */
  private static String messages(Throwable failure) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      text.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
    }
    return text.toString();
  }
}
