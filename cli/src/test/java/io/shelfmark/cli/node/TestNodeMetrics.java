package io.shelfmark.cli.node;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.WarmupConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} after a known workload, parsed by the Prometheus client's own text-format
 * parser (Python's prometheus_client, from the environment bin/test builds): the query counters by
 * table and outcome, the latency histogram, the table gauges and the JVM's meters hold exactly what
 * the workload did.
 */
class TestNodeMetrics {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TABLE = "met.events";

  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("met"));
    }
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("met", "events"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            5);
    scenario.append(200);
    Path nodeDir = directory.resolve("node");
    node =
        TestingNodes.start(
            lake,
            TestingNodes.config(lake, nodeDir)
                // The warm-up's own queries would count too: the workload here is the only one.
                .warmup(WarmupConfig.off())
                .build());
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "met", "events"))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .build());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table(TABLE).orElseThrow().segmentsPending() == 0);
  }

  @AfterEach
  void stop() throws Exception {
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void scrapeCountsTheWorkload() throws Exception {
    BrokerClient broker = new BrokerClient(node.url());
    for (int i = 0; i < 3; i++) {
      assertThat(
              broker.query("SELECT COUNT(*) FROM met.events", Optional.empty()).path("exceptions"))
          .isEmpty();
    }
    broker.query("SELECT no_such_column FROM met.events", Optional.empty());
    broker.query("SELECT COUNT(*) FROM met.no_such_table", Optional.empty());

    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(node.url() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type").orElseThrow())
        .startsWith("text/plain; version=0.0.4");
    List<JsonNode> samples = parse(response.body());

    assertThat(value(samples, "shelfmark_queries_total", "table", TABLE, "outcome", "success"))
        .isEqualTo(3);
    // Planning failed before a served table was resolved: the client's names never become labels.
    assertThat(value(samples, "shelfmark_queries_total", "table", "none")).isEqualTo(2);
    assertThat(samples)
        .noneMatch(s -> s.path("labels").path("table").asText().contains("no_such_table"));
    assertThat(value(samples, "shelfmark_query_duration_seconds_count", "table", TABLE))
        .isEqualTo(3);
    assertThat(
            value(samples, "shelfmark_query_duration_seconds_bucket", "table", TABLE, "le", "+Inf"))
        .isEqualTo(3);
    long files = node.registry().table(TABLE).orElseThrow().dataFiles();
    assertThat(value(samples, "shelfmark_query_files_queried_total", "table", TABLE))
        .isEqualTo(3 * files);
    assertThat(value(samples, "shelfmark_table_segments", "table", TABLE, "state", "ready"))
        .isEqualTo(files);
    assertThat(value(samples, "shelfmark_table_segments", "table", TABLE, "state", "failed"))
        .isZero();
    assertThat(value(samples, "shelfmark_table_records", "table", TABLE, "kind", "total"))
        .isEqualTo(200);
    assertThat(value(samples, "shelfmark_table_snapshot_lag_seconds", "table", TABLE))
        .isGreaterThanOrEqualTo(0);
    assertThat(value(samples, "shelfmark_storage_requests_total", "method", "put"))
        .as("segments were uploaded")
        .isGreaterThanOrEqualTo(files);
    assertThat(value(samples, "shelfmark_cache_max_size_bytes", "tier", "memory"))
        .isEqualTo(16 * 1024 * 1024);
    assertThat(samples).anyMatch(s -> s.path("name").asText().equals("jvm_memory_used_bytes"));
  }

  /** The sum of the samples named {@code name} whose labels include {@code labels}. */
  private static double value(List<JsonNode> samples, String name, String... labels) {
    double sum = 0;
    boolean found = false;
    for (JsonNode sample : samples) {
      if (!sample.path("name").asText().equals(name)) {
        continue;
      }
      boolean matches = true;
      for (int i = 0; i < labels.length; i += 2) {
        matches &= sample.path("labels").path(labels[i]).asText().equals(labels[i + 1]);
      }
      if (matches) {
        sum += sample.path("value").asDouble();
        found = true;
      }
    }
    assertThat(found).as("a sample %s with %s", name, List.of(labels)).isTrue();
    return sum;
  }

  /** Parses the scrape with prometheus_client's parser, in the Python environment bin/test made. */
  private List<JsonNode> parse(String scrape) throws IOException, InterruptedException {
    String python = System.getProperty("shelfmark.python", "");
    assertThat(python)
        .as("the Python environment of the client tests (run bin/test, which builds it)")
        .isNotBlank();
    Path script = Path.of("src/test/python/parse_metrics.py").toAbsolutePath();
    Process process =
        new ProcessBuilder(python, script.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    try (var in = process.getOutputStream()) {
      in.write(scrape.getBytes(UTF_8));
    }
    String output = new String(process.getInputStream().readAllBytes(), UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("the parser accepted the scrape").isZero();
    List<JsonNode> samples = new ArrayList<>();
    for (String line : output.split("\n")) {
      if (!line.isBlank()) {
        samples.add(JSON.readTree(line));
      }
    }
    assertThat(samples).isNotEmpty();
    assertThat(Files.exists(script)).isTrue();
    return samples;
  }
}
