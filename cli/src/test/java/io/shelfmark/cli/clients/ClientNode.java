package io.shelfmark.cli.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.quickstart.Quickstart;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real node for the client tests: the quickstart's {@code obs.metrics} table (with its map
 * column) indexed and served over HTTP, plus what the tests compare the clients' answers with — the
 * node's own answer over plain HTTP.
 */
final class ClientNode implements AutoCloseable {
  /** Small: the tests check what clients send and read, not scale. */
  static final long ROWS = 2_000;

  static final Map<String, String> BENCHMARK_QUERIES = Quickstart.BENCHMARK_QUERIES;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Quickstart quickstart;
  private final Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  private ClientNode(Quickstart quickstart, Path dir) {
    this.quickstart = quickstart;
    this.dir = dir;
  }

  /** Starts a node whose lake and data live in {@code dir}, deleted on {@link #close}. */
  static ClientNode start(Path dir) throws Exception {
    return new ClientNode(
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)),
        dir);
  }

  int port() {
    return quickstart.port();
  }

  /** {@code 127.0.0.1:port}: what Pinot's Java clients take as a broker or controller address. */
  String hostPort() {
    return "127.0.0.1:" + port();
  }

  String url() {
    return quickstart.url();
  }

  /** The Arrow Flight SQL JDBC driver's URL of the node. */
  String jdbcUrl() {
    return quickstart.jdbcUrl();
  }

  /** The node's Arrow Flight SQL port. */
  int flightPort() {
    return quickstart.node().flightPort();
  }

  /** The node's answer to {@code sql} over plain HTTP, as Pinot's broker JSON. */
  JsonNode query(String sql, Optional<String> database) {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(url() + "/query/sql"))
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("sql", sql))));
      database.ifPresent(name -> request.header("database", name));
      return JSON.readTree(http.send(request.build(), HttpResponse.BodyHandlers.ofString()).body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while querying " + url(), e);
    }
  }

  /** The rows of a successful answer, each value as text (how clients' values are compared). */
  static List<List<String>> rows(JsonNode answer) {
    if (!answer.path("exceptions").isEmpty()) {
      throw new AssertionError("The node refused the query: " + answer.path("exceptions"));
    }
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row : answer.path("resultTable").path("rows")) {
      List<String> values = new ArrayList<>();
      row.forEach(value -> values.add(value.isNull() ? null : value.asText()));
      rows.add(values);
    }
    return rows;
  }

  @Override
  public void close() throws IOException {
    quickstart.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
