package io.shelfmark.cli.clients;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * ADBC's Flight SQL driver 1.13.0 for Python — what pandas, Polars and DuckDB read Flight SQL
 * through — fetching into pyarrow Tables from a real node, unchanged, with default settings. Runs
 * the Python of the venv bin/test builds from cli/src/test/python/requirements.txt.
 */
@ExtendWith(SharedClientNode.class)
class TestPythonAdbc {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PROBE = Path.of("src/test/python/adbc_probe.py");

  @TempDir static Path dir;
  private static ClientNode node;
  private static String python;

  @BeforeAll
  static void start(ClientNode shared) {
    python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the ADBC client tests: no Python with adbc-driver-flightsql"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
    node = shared;
  }

  @Test
  void benchmarkQueriesFetchIntoPyarrowTablesEqualToHttp() throws Exception {
    for (Map.Entry<String, String> query : ClientNode.BENCHMARK_QUERIES.entrySet()) {
      JsonNode answer = run(query.getValue(), null);
      assertThat(answer.has("error")).as(query.getKey() + ": " + answer).isFalse();
      JsonNode http = node.query(query.getValue(), Optional.empty());
      assertThat(answer.get("num_rows").asInt())
          .as(query.getKey())
          .isPositive()
          .isEqualTo(http.path("resultTable").path("rows").size());
      assertThat(values(answer.get("rows")))
          .as(query.getKey())
          .isEqualTo(values(http.path("resultTable").path("rows")));
      List<String> names = new ArrayList<>();
      answer.get("schema").forEach(field -> names.add(field.get(0).asText()));
      List<String> httpNames = new ArrayList<>();
      http.path("resultTable")
          .path("dataSchema")
          .path("columnNames")
          .forEach(name -> httpNames.add(name.asText()));
      assertThat(names).as(query.getKey()).isEqualTo(httpNames);
    }
  }

  @Test
  void pyarrowTypesAreExact() throws Exception {
    JsonNode answer =
        run(
            "SELECT org_id, metric, resolution, sum_rollup, COUNT(*) AS n FROM obs.metrics"
                + " GROUP BY org_id, metric, resolution, sum_rollup ORDER BY n DESC LIMIT 3",
            null);
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    Map<String, String> types = new LinkedHashMap<>();
    answer.get("schema").forEach(field -> types.put(field.get(0).asText(), field.get(1).asText()));
    assertThat(types)
        .containsExactly(
            Map.entry("org_id", "int64"),
            Map.entry("metric", "string"),
            Map.entry("resolution", "int32"),
            Map.entry("sum_rollup", "double"),
            Map.entry("n", "int64"));
  }

  @Test
  void boundParametersAreValues() throws Exception {
    String sql = "SELECT COUNT(*) AS n FROM obs.metrics WHERE metric = ? AND org_id = ?";
    long expected =
        node.query(
                "SELECT COUNT(*) FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768",
                Optional.empty())
            .path("resultTable")
            .path("rows")
            .get(0)
            .get(0)
            .asLong();
    // ADBC binds each Python value with its own Arrow type: a string and an int64.
    JsonNode answer = run(sql, List.of("tk_cache", 184833768L));
    assertThat(answer.has("error")).as(answer.toString()).isFalse();
    assertThat(answer.get("rows").get(0).get(0).asLong()).isPositive().isEqualTo(expected);
    JsonNode quoted = run(sql, List.of("tk_cache' OR 'a' = 'a", 184833768L));
    assertThat(quoted.get("rows").get(0).get(0).asLong()).isZero();
  }

  @Test
  void errorsCarryShelfmarksMessage() throws Exception {
    JsonNode answer = run("SELECT nope FROM obs.metrics", null);
    assertThat(answer.get("error").asText())
        .contains("Cannot resolve column 'nope'")
        .contains("710 UNKNOWN_COLUMN");
  }

  /** Rows with numbers as numbers: pyarrow's and the node's JSON numbers compare by value. */
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

  private static JsonNode run(String sql, List<Object> parameters) throws IOException {
    Map<String, Object> command = new LinkedHashMap<>();
    command.put("uri", "grpc://127.0.0.1:" + node.flightPort());
    command.put("sql", sql);
    if (parameters != null) {
      command.put("parameters", parameters);
    }
    Path log = Files.createTempFile(dir, "adbc", ".log");
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
        throw new IllegalStateException("ADBC probe did not finish: " + command);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running the ADBC probe", e);
    }
    if (out.isBlank()) {
      throw new IllegalStateException(
          "ADBC probe printed nothing for " + command + ": " + Files.readString(log));
    }
    return JSON.readTree(out);
  }
}
