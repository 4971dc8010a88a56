package io.shelfmark.cli.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.config.table.TableConfig;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A measurement, not a test (surefire's default includes skip it): the quickstart's Q2 and Q3 over
 * HTTP, many times in one process, with their client-observed and server-reported ({@code
 * timeUsedMs}) medians and how many segments a star-tree answered. For profiling the star-tree
 * answer path without a whole {@code bin/shelfmark bench}: add a flight recording with {@code
 * -Dshelfmark.jvm.flags=...}. Properties: {@code measure.rows} (default 2,000,000), {@code
 * measure.dir} (reused between runs, default a new temporary directory), {@code measure.runs}
 * (default 300), {@code measure.warm} (warm-up runs before them, default as many; the bench runs 15
 * after its node warm-up), {@code measure.dense} (default false: the bundled config; true: {@link
 * DenseStarTreeConfig}). Run with {@code ./mvnw -q -pl cli -am test -Dtest=MeasureStarTreeQueries
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class MeasureStarTreeQueries {
  @Test
  void measure() throws Exception {
    long rows = Long.getLong("measure.rows", 2_000_000);
    int runs = Integer.getInteger("measure.runs", 300);
    int warm = Integer.getInteger("measure.warm", runs);
    String dirName = System.getProperty("measure.dir");
    Path dir = dirName == null ? Files.createTempDirectory("measure-st") : Path.of(dirName);
    Quickstart.Options options = new Quickstart.Options(rows, 42, dir, 0, true);
    if (Boolean.getBoolean("measure.dense")) {
      TableConfig dense = DenseStarTreeConfig.load();
      options = options.withTableConfig(dense);
    }
    ObjectMapper json = new ObjectMapper();
    HttpClient http = HttpClient.newHttpClient();
    try (Quickstart node =
        Quickstart.start(
            options,
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8))) {
      for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
        if (!query.getKey().equals("Q2") && !query.getKey().equals("Q3")) {
          continue;
        }
        HttpRequest request =
            HttpRequest.newBuilder(URI.create(node.url() + "/query/sql"))
                .header("Content-Type", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        json.writeValueAsString(Map.of("sql", query.getValue()))))
                .build();
        double[] client = new double[runs];
        double[] server = new double[runs];
        JsonNode last = null;
        for (int run = -warm; run < runs; run++) {
          long started = System.nanoTime();
          String body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
          long nanos = System.nanoTime() - started;
          last = json.readTree(body);
          if (run >= 0) {
            client[run] = nanos / 1e6;
            server[run] = last.path("timeUsedMs").asDouble();
          }
        }
        Arrays.sort(client);
        Arrays.sort(server);
        System.out.printf(
            Locale.ROOT,
            "MEASURE %s rows=%d: client median %.2f ms p90 %.2f, timeUsedMs median %.1f;"
                + " result rows %d, numSegmentsStarTree %s, numDocsScanned %s, segments %s%n",
            query.getKey(),
            rows,
            client[runs / 2],
            client[runs * 9 / 10],
            server[runs / 2],
            last.path("resultTable").path("rows").size(),
            last.path("numSegmentsStarTree"),
            last.path("numDocsScanned"),
            last.path("numSegmentsQueried"));
      }
    }
  }
}
