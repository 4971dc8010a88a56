package io.shelfmark.cli.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.bench.BenchQueries;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerCredentials;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.security.PasswordHash;
import io.shelfmark.config.security.SecurityConfig;
import io.shelfmark.config.security.TablePattern;
import io.shelfmark.config.security.UserConfig;
import io.shelfmark.config.security.UserRole;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.iceberg.ScenarioFile;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console in a real headless Chromium (Debian's package, driven by Playwright for Python:
 * cli/src/test/python/console_browser.py) against a real node: the tables page shows a failed
 * segment's reason, the nodes page this node, and the query editor runs Q3 (the benchmark's time
 * series) into a grid equal to the node's own answer and a drawn line chart.
 *
 * <p>The node has a user, as a production node would: the browser is refused without it and signs
 * in with HTTP Basic, which the console's own API calls then carry.
 *
 * <p>bin/test installs Chromium when missing and passes {@code shelfmark.chromium} and {@code
 * shelfmark.python}. With {@code -Dshelfmark.console.screenshots=DIR} the pages are saved there as
 * {@code console-*.png} (docs/images holds the committed ones).
 */
class TestConsoleInBrowser {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path SCRIPT = Path.of("src/test/python/console_browser.py");
  private static final String FAILING_TABLE = "rep.events";
  private static final String USER = "operator";
  private static final String PASSWORD = "console-test-password";

  @TempDir static Path directory;
  private static LocalLake lake;
  private static AllInOne node;
  private static String python;
  private static String chromium;
  private static String corruptFile;

  @BeforeAll
  static void start() throws Exception {
    python = System.getProperty("shelfmark.python", "");
    chromium = System.getProperty("shelfmark.chromium", "/usr/bin/chromium");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the console's browser test: no Python with Playwright"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
    if (!Files.isExecutable(Path.of(chromium))) {
      throw new IllegalStateException(
          "Cannot run the console's browser test: no Chromium at "
              + chromium
              + " (run bin/test, which installs Debian's chromium package, or apt-get install -y"
              + " chromium)");
    }
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("obs"));
      namespaces.createNamespace(Namespace.of("rep"));
    }
    MetricsTableGenerator.generate(
        lake.catalog(),
        TableIdentifier.of("obs", "metrics"),
        GeneratorOptions.builder().rows(20_000).seed(7).build(),
        (written, total) -> {});
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("rep", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            11);
    scenario.append(150);
    // One data file whose Parquet footer is gone: its segment cannot be built.
    ScenarioFile damaged = scenario.state().files().getFirst();
    corruptFile = damaged.location();
    zeroFooter(damaged.localPath());

    // With a user configured, as a production node has: the browser signs in with HTTP Basic.
    SecurityConfig security =
        new SecurityConfig(
            List.of(
                new UserConfig(
                    USER,
                    Optional.of(
                        PasswordHash.create(PASSWORD.toCharArray(), PasswordHash.MIN_ITERATIONS)),
                    Optional.empty(),
                    EnumSet.of(UserRole.QUERY),
                    List.of(TablePattern.ALL))),
            Optional.empty());
    node =
        TestingNodes.start(
            lake, TestingNodes.config(lake, directory.resolve("node")).security(security).build());
    node.registry().onboard(ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE));
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "rep", "events"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    await()
        .atMost(Duration.ofSeconds(120))
        .until(
            () ->
                node.registry().tables().stream().allMatch(table -> table.segmentsPending() == 0));
  }

  @AfterAll
  static void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void consoleShowsTablesNodesAndChartsQ3() throws Exception {
    BrokerClient broker =
        new BrokerClient(node.url(), new BrokerCredentials.Basic(USER, PASSWORD), Optional.empty());
    JsonNode failing = broker.table(FAILING_TABLE).orElseThrow();
    assertThat(failing.path("segmentsFailed").asLong()).isEqualTo(1);
    String reason = failing.path("failures").get(0).path("reason").asText();
    JsonNode expected = broker.query(BenchQueries.Q3.sql(), Optional.of(Duration.ofSeconds(60)));
    assertThat(expected.path("exceptions")).isEmpty();
    int expectedRows = expected.path("resultTable").path("rows").size();
    assertThat(expectedRows).as("Q3 answers a series to chart").isGreaterThan(1);

    JsonNode seen = browse(BenchQueries.Q3.sql());

    assertThat(seen.path("errors")).as("script errors in the page").isEmpty();
    // Without a user the browser gets the challenge; with one, every page below.
    assertThat(seen.path("withoutUser").asText())
        .startsWith("Page.goto: net::ERR_INVALID_AUTH_CREDENTIALS");
    // Tables page: both tables, the failed segment's file and reason as the status gives them.
    assertThat(texts(seen.path("tables"))).containsExactlyInAnyOrder("obs.metrics", FAILING_TABLE);
    assertThat(texts(seen.path("failedFiles"))).containsExactly(corruptFile);
    assertThat(texts(seen.path("failedReasons"))).containsExactly(reason);
    assertThat(reason).isNotBlank();
    assertThat(seen.path("failedCount").asText()).isEqualTo("1 failed");
    assertThat(seen.path("state").asText()).isEqualTo("SERVING");
    JsonNode facts = seen.path("facts");
    // 64-bit snapshot ids are shown exactly, not rounded to a JavaScript double.
    assertThat(facts.path("snapshot").asText()).isEqualTo(failing.path("snapshotId").asText());
    assertThat(facts.path("committed").asText())
        .startsWith(
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'")
                .withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(failing.path("snapshotCommittedAtMillis").asLong())));
    assertThat(facts.path("data files").asText()).isEqualTo(failing.path("dataFiles").asText());
    assertThat(facts.path("rows").asText()).isEqualTo(failing.path("records").asText());
    // Nodes page: this node, healthy, with the segments it serves and its memory tier.
    assertThat(seen.path("nodes")).hasSize(1);
    JsonNode self = seen.path("nodes").get(0);
    assertThat(self.path("id").asText()).isEqualTo("all-in-one@127.0.0.1:" + node.port());
    List<String> cells = texts(self.path("cells"));
    assertThat(cells.get(1)).isEqualTo("controller, index-builder, server, broker");
    assertThat(cells.get(2)).isEqualTo("OK");
    long segments =
        node.registry().tables().stream()
            .mapToLong(
                table -> broker.table(table.sqlName()).orElseThrow().path("segmentsReady").asLong())
            .sum();
    assertThat(cells.get(5)).isEqualTo(String.format(Locale.US, "%,d", segments));
    assertThat(cells.get(6)).contains("memory").contains("of 16.0 MiB").contains("disk off");
    // Query page: the grid holds the node's answer, value for value; the chart is drawn.
    assertThat(seen.path("queryError").asText()).isEmpty();
    assertThat(texts(seen.path("columns")))
        .isEqualTo(texts(expected.path("resultTable").path("dataSchema").path("columnNames")));
    assertThat(rows(seen.path("rows"))).isEqualTo(rowsAsText(expected));
    assertThat(seen.path("stats").asText())
        .contains(expectedRows + " rows")
        .contains("docs matched")
        .contains("snapshot " + expected.path("snapshotId").asLong());
    assertThat(seen.path("chartCaption").asText())
        .isEqualTo(
            expected.path("resultTable").path("dataSchema").path("columnNames").get(1).asText()
                + " by time_bucket, "
                + expectedRows
                + " points");
    assertThat(seen.path("chartPixels").asInt()).as("painted pixels").isGreaterThan(500);
    assertThat(seen.path("chartSeries").asInt()).as("legend: time and one series").isEqualTo(2);
    assertThat(seen.path("explainShown").asBoolean()).isFalse();

    // The console's modules on shapes this node does not produce (EXPLAIN lands separately).
    JsonNode modules = seen.path("modules");
    assertThat(modules.path("explainText").asText())
        .contains("operator Aggregate · timeMs 4")
        .contains("operator Scan · table obs.metrics · files 3")
        .contains("line one\nline two");
    assertThat(modules.path("explainTableRows").asInt()).as("phases as a table").isEqualTo(2);
    assertThat(texts(modules.path("explainDetails")))
        .containsExactly("children", "children", "phases", "text");
    assertThat(modules.path("explainPre").asInt()).isEqualTo(1);
    // Charted: epoch milliseconds (x in seconds, sorted) and TIMESTAMP text.
    assertThat(modules.path("millis").toString()).isEqualTo("[[1754226010,1754226011],[2,1.5]]");
    assertThat(modules.path("timestamps").toString()).isEqualTo("[[1754215200,1754215201],[1,2]]");
    // Not charted: a text first column, small integers that are not times, one row, text values.
    for (String notASeries : List.of("groups", "counts", "oneRow", "textValues")) {
      assertThat(modules.path(notASeries).isNull()).as(notASeries).isTrue();
    }
  }

  /** Runs the browser script against the node; what the pages showed, as JSON. */
  private static JsonNode browse(String sql) throws IOException {
    Map<String, Object> command = new LinkedHashMap<>();
    command.put("url", node.url());
    command.put("browser", chromium);
    command.put("table", FAILING_TABLE);
    command.put("sql", sql);
    command.put("user", USER);
    command.put("password", PASSWORD);
    String screenshots = System.getProperty("shelfmark.console.screenshots", "");
    if (!screenshots.isEmpty()) {
      Files.createDirectories(Path.of(screenshots));
      command.put("screenshots", Path.of(screenshots).toAbsolutePath().toString());
    }
    Path log = Files.createTempFile(directory, "browser", ".log");
    Process process =
        new ProcessBuilder(python, SCRIPT.toAbsolutePath().toString())
            .redirectError(log.toFile())
            .start();
    process.getOutputStream().write(JSON.writeValueAsBytes(command));
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), UTF_8);
    try {
      if (!process.waitFor(180, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            "The browser script did not finish: " + Files.readString(log));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running the browser script", e);
    }
    if (process.exitValue() != 0 || out.isBlank()) {
      throw new AssertionError(
          "The browser script failed (exit " + process.exitValue() + "): " + Files.readString(log));
    }
    return JSON.readTree(out);
  }

  /** Zeroes the last 8 bytes: the footer's length and the PAR1 magic. Same size, so S3 agrees. */
  private static void zeroFooter(Path file) throws IOException {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
      raf.seek(raf.length() - 8);
      raf.write(new byte[8]);
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(value -> texts.add(value.asText()));
    return texts;
  }

  private static List<List<String>> rows(JsonNode array) {
    List<List<String>> rows = new ArrayList<>();
    array.forEach(row -> rows.add(texts(row)));
    return rows;
  }

  /** The node's rows as the grid writes them: JavaScript's String() of each JSON value. */
  private static List<List<String>> rowsAsText(JsonNode answer) {
    List<List<String>> rows = new ArrayList<>();
    for (JsonNode row : answer.path("resultTable").path("rows")) {
      List<String> values = new ArrayList<>();
      for (JsonNode value : row) {
        values.add(
            value.isNull()
                ? "null"
                : value.isIntegralNumber()
                    ? value.asText()
                    : value.isNumber() ? javaScript(value.asDouble()) : value.asText());
      }
      rows.add(values);
    }
    return rows;
  }

  /**
   * JavaScript's shortest round-trip form of a double, as String(x) gives it, for the values Q3
   * returns (no exponent below 1e21).
   */
  private static String javaScript(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e21) {
      return Long.toString((long) value);
    }
    // Java writes 1.0E7 where JavaScript writes 10000000; the digits are the same shortest ones.
    return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
  }
}
