package io.shelfmark.cli.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart end to end: real embedded S3 over HTTP, real SQLite catalog, segments built into
 * the lake's bucket, every role in one JVM, and the four benchmark queries answered over HTTP with
 * the same results as DuckDB reading the same Parquet files.
 */
public class TestQuickstart {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long ROWS = 20_000;

  /** DuckDB's spelling of the benchmark queries: the same semantics in its dialect. */
  public static final Map<String, String> DUCKDB_QUERIES =
      Map.of(
          "Q1",
          Quickstart.BENCHMARK_QUERIES.get("Q1"),
          "Q2",
          Quickstart.BENCHMARK_QUERIES.get("Q2"),
          "Q3",
          "SELECT (logical_timestamp // 1000) * 1000 AS time_bucket, AVG(latest_rollup)"
              + " FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768"
              + " AND resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000"
              + " AND logical_timestamp <= 1754229600000 GROUP BY 1 ORDER BY time_bucket",
          "Q4",
          "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value"
              + " FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768"
              + " AND resolution = 15000 AND dimensions['node'] = 'xyz'"
              + " AND logical_timestamp >= 1754229600000 - 360000"
              + " AND logical_timestamp <= 1754229600000"
              + " GROUP BY 1 ORDER BY total_value DESC");

  @Test
  void indexesTheTableAndAnswersTheBenchmarkQueriesLikeDuckDb(@TempDir Path dir) throws Exception {
    HttpClient client = HttpClient.newHttpClient();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (Quickstart quickstart =
            Quickstart.start(
                new Quickstart.Options(ROWS, 7, dir, 0, true),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
        DuckDbOracle duckDb = DuckDbOracle.open()) {
      String output = printed.toString(StandardCharsets.UTF_8);
      assertThat(output)
          .contains("[1/5] embedded S3 store: http://127.0.0.1:")
          .contains("[4/5] indexed obs.metrics at snapshot")
          .contains("warmed up the node in")
          .contains("Q1: SELECT COUNT(*)")
          .contains("Q4: SELECT dimensions['service']")
          .contains(
              "JDBC (Arrow Flight SQL): jdbc:arrow-flight-sql://127.0.0.1:"
                  + quickstart.node().flightPort()
                  + "/?useEncryption=false")
          .contains("web console: " + quickstart.url() + "/")
          .doesNotContain("Error ");
      // The console a newcomer opens from that line (TestConsoleInBrowser drives it in a browser).
      HttpResponse<String> console =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(quickstart.url() + "/")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(console.statusCode()).isEqualTo(200);
      assertThat(console.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
      assertThat(console.body()).contains("<title>Shelfmark console</title>");

      // The generated warm-up queries all run on the benchmark table (map keys, dateTrunc, ...).
      assertThat(quickstart.node().warmupSummary().orElseThrow().failed()).isZero();
      assertThat(quickstart.node().warmupSummary().orElseThrow().queries()).isEqualTo(10);

      HttpResponse<String> health = get(client, quickstart.url() + "/health");
      assertThat(health.statusCode()).isEqualTo(200);

      JsonNode table =
          JSON.readTree(get(client, quickstart.url() + "/tables/obs.metrics/status").body());
      assertThat(table.get("records").asLong()).isEqualTo(ROWS);
      assertThat(table.get("state").asText()).isEqualTo("SERVING");
      assertThat(table.get("segmentsReady").asLong()).isEqualTo(table.get("dataFiles").asLong());
      assertThat(table.get("indexBytes").asLong()).isPositive();
      assertThat(table.get("snapshotId").asLong()).isEqualTo(quickstart.table().snapshotId());

      List<Path> files = new ArrayList<>();
      for (DataFileInfo file : quickstart.table().snapshot().dataFiles()) {
        files.add(quickstart.lakeDirectory().resolve(file.path().substring("s3://".length())));
      }
      duckDb.registerTable("obs.metrics", files);
      BrokerClient broker = new BrokerClient(quickstart.url());
      for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
        JsonNode response = broker.query(query.getValue(), Optional.of(Duration.ofSeconds(60)));
        assertThat(response.get("exceptions")).as(query.getKey()).isEmpty();
        QueryResult expected = duckDb.query(DUCKDB_QUERIES.get(query.getKey()));
        ResultComparison.assertEquivalent(
            expected, resultOf(response), true, ResultComparison.DEFAULT_TOLERANCE);
        assertThat(response.get("totalDocs").asLong()).isEqualTo(ROWS);
        assertThat(response.get("snapshotId").asLong()).isEqualTo(quickstart.table().snapshotId());
      }
      JsonNode q2 =
          broker.query(Quickstart.BENCHMARK_QUERIES.get("Q2"), Optional.of(Duration.ofSeconds(60)));
      assertThat(q2.get("numSegmentsPrunedByBroker").asLong())
          .as("Q2's org and time range prune files on their partitions before any I/O")
          .isGreaterThan(q2.get("numSegmentsQueried").asLong());
      // The bundled star-tree answers the dashboard's Q2 and Q3 out of the box, at any size: the
      // largest org's tk_cache is sparse per second here but a large share of its file's rows, so
      // it keeps its per-second records (docs/config.md#star-trees).
      for (String name : List.of("Q2", "Q3")) {
        JsonNode fromTree =
            broker.query(
                Quickstart.BENCHMARK_QUERIES.get(name), Optional.of(Duration.ofSeconds(60)));
        assertThat(fromTree.get("numSegmentsStarTree").asLong()).as(name).isEqualTo(1);
        assertThat(fromTree.get("storageBytesRead").asLong()).as(name).isZero();
      }
      assertThat(output).contains("answered from a star-tree 1;");
      JsonNode q1 =
          broker.query(Quickstart.BENCHMARK_QUERIES.get("Q1"), Optional.of(Duration.ofSeconds(60)));
      assertThat(q1.get("storageBytesRead").asLong())
          .as("Q1 is answered from the pinned segments alone")
          .isZero();
    }

    // A second start over the same directory reuses the table and its segments.
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    try (Quickstart quickstart =
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(again, true, StandardCharsets.UTF_8))) {
      assertThat(again.toString(StandardCharsets.UTF_8)).contains("Reused table obs.metrics");
      assertThat(quickstart.table().records()).isEqualTo(ROWS);
      assertThat(quickstart.table().segmentsReady()).isEqualTo(quickstart.table().dataFiles());
    }
  }

  /**
   * Run again on its data directory, the quickstart finds the table served already (its node's
   * embedded ZooKeeper kept it) and says that it reused every segment, instead of claiming to have
   * indexed them all at an impossible rate.
   */
  @Test
  void aSecondRunReusesEverySegmentAndSaysSo(@TempDir Path dir) throws Exception {
    long segments;
    try (Quickstart first =
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))) {
      segments = first.table().segmentsReady();
    }
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (Quickstart second =
        Quickstart.start(
            new Quickstart.Options(ROWS, 7, dir, 0, true),
            new PrintStream(printed, true, StandardCharsets.UTF_8))) {
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains(
              "[4/5] serving obs.metrics at snapshot %d: all %,d segments reused from an earlier run, nothing to index"
                  .formatted(second.table().snapshotId(), segments))
          .doesNotContain("[4/5] indexed");
      assertThat(second.table().segmentsReady()).isEqualTo(segments);
    }
  }

  /** A broker's JSON answer as a result DuckDB's can be compared with. */
  public static QueryResult resultOf(JsonNode response) {
    List<String> columns = new ArrayList<>();
    for (JsonNode name : response.path("resultTable").path("dataSchema").path("columnNames")) {
      columns.add(name.asText());
    }
    List<String> types = new ArrayList<>();
    for (JsonNode type : response.path("resultTable").path("dataSchema").path("columnDataTypes")) {
      types.add(type.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < row.size(); c++) {
        JsonNode value = row.get(c);
        values.add(
            value.isNull()
                ? null
                : c < types.size() && types.get(c).equals("TIMESTAMP")
                    ? timestamp(value.asText())
                    : value.isIntegralNumber()
                        ? (Object) value.asLong()
                        : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      rows.add(values);
    }
    return QueryResult.normalized(columns, rows);
  }

  /** A TIMESTAMP as the HTTP API renders it ({@code 2025-08-03 14:00:00[.ffffff][Z]}). */
  private static java.time.LocalDateTime timestamp(String text) {
    String local = text.endsWith("Z") ? text.substring(0, text.length() - 1) : text;
    return java.time.LocalDateTime.parse(local.replace(' ', 'T'));
  }

  private static HttpResponse<String> get(HttpClient client, String url) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create(url)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
