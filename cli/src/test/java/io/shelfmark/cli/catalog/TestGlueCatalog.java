package io.shelfmark.cli.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.CatalogException;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.io.ObjectStoreFileIO;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.Violation;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code catalog.type: glue} against a real Glue-compatible server: moto's server mode, started
 * from the Python of the venv bin/test builds (passed as {@code shelfmark.python}), on a free
 * loopback port. The table is created and appended to through the Glue catalog itself
 * (iceberg-aws's GlueCatalog as Shelfmark opens it), its files in the embedded S3 server; an
 * all-in-one node configured with that catalog onboards, indexes and answers it like DuckDB over
 * the same files, then follows a snapshot committed through Glue with no explicit refresh.
 */
class TestGlueCatalog {
  private static final String CATALOG = "glue";
  private static final Namespace OBS = Namespace.of("obs");
  private static final TableIdentifier EVENTS = TableIdentifier.of("obs", "events");
  private static final Duration MOTO_START = Duration.ofSeconds(120);

  @TempDir static Path directory;
  private static Process moto;
  private static LocalLake lake;
  private static Catalog glue;
  private static AllInOne node;
  private static DuckDbOracle duckDb;
  private static BrokerClient broker;

  @BeforeAll
  static void start() throws Exception {
    String python = System.getProperty("shelfmark.python", "");
    if (python.isEmpty() || !Files.isExecutable(Path.of(python))) {
      throw new IllegalStateException(
          "Cannot run the Glue catalog tests: no Python with moto"
              + (python.isEmpty() ? "" : " at " + python)
              + " (run bin/test, which builds .shelfmark-build/pyenv from"
              + " cli/src/test/python/requirements.txt and passes -Dshelfmark.python to Maven)");
    }
    int port = freePort();
    moto = startMoto(python, port);
    lake = LocalLake.start(directory.resolve("lake"), 0);
    // The node's config goes through the loader, as all-in-one --config does: the Glue keys are
    // checked there and the Glue region comes from storage.region.
    ClusterConfig cluster =
        new ConfigLoader(Map.of())
            .parseCluster(
                clusterYaml(port, directory.resolve("node")), ConfigFormat.YAML, "cluster.yaml");
    CatalogConfig config = cluster.catalog().orElseThrow();
    assertThat(config.type()).isEqualTo(CatalogType.GLUE);
    assertThat(config.properties()).containsEntry("client.region", EmbeddedS3Server.REGION);
    glue = Catalogs.open(config, lake.store());
    ((SupportsNamespaces) glue).createNamespace(OBS);
    node = AllInOne.start(cluster, Map.of(CATALOG, glue), lake.store(), 0);
    duckDb = DuckDbOracle.open();
    broker = new BrokerClient(node.url());
  }

  @AfterAll
  static void stop() throws Exception {
    try {
      if (duckDb != null) {
        duckDb.close();
      }
      if (node != null) {
        node.close();
      }
      if (glue instanceof Closeable closeable) {
        closeable.close();
      }
      if (lake != null) {
        lake.close();
      }
    } finally {
      if (moto != null) {
        moto.destroy();
        if (!moto.waitFor(10, TimeUnit.SECONDS)) {
          moto.destroyForcibly();
        }
      }
    }
  }

  @Test
  void onboardsIndexesQueriesAndFollowsSnapshotsCommittedThroughGlue() throws Exception {
    IcebergScenario scenario =
        IcebergScenario.create(
            glue,
            EVENTS,
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            27);
    scenario.append(120);
    // The table's metadata went through Shelfmark's store, and Glue points at it.
    assertThat(scenario.table().io())
        .isInstanceOf(ObjectStoreFileIO.class)
        .asString()
        .startsWith("ObjectStoreFileIO{shared ");
    assertThat(scenario.table().location())
        .isEqualTo(LocalLake.WAREHOUSE + "/obs.db/events")
        .startsWith("s3://" + LocalLake.BUCKET + "/");

    ServedTable onboarded =
        node.registry()
            .onboard(
                TableConfig.builder(new TableIdentity(CATALOG, "obs", "events"))
                    .column("category", ColumnConfig.of(IndexKind.INVERTED))
                    .column("id", ColumnConfig.of(IndexKind.RANGE))
                    .refreshInterval(Duration.ofSeconds(1))
                    .build());
    assertThat(onboarded.snapshotId()).isEqualTo(scenario.table().currentSnapshot().snapshotId());
    awaitServed(scenario.table().currentSnapshot().snapshotId());
    checkAnswers(scenario);

    // A new snapshot committed through Glue: the node's refresher finds it on its own.
    scenario.append(60);
    scenario.table().refresh();
    long next = scenario.table().currentSnapshot().snapshotId();
    assertThat(next).isNotEqualTo(onboarded.snapshotId());
    awaitServed(next);
    checkAnswers(scenario);
  }

  @Test
  void missingDatabaseOrTableIsNamedWithWhatGlueHolds() throws Exception {
    TableIdentifier present = TableIdentifier.of("obs", "present");
    glue.createTable(present, IcebergScenario.SCHEMA);

    assertThatThrownBy(() -> Catalogs.loadTable(glue, TableIdentifier.of("obs", "nosuch")))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith("Cannot load table obs.nosuch from catalog 'glue': no such table")
        .hasMessageContaining("present")
        .extracting(e -> ((CatalogException) e).reason())
        .isEqualTo(CatalogException.Reason.NOT_FOUND);
    assertThatThrownBy(() -> Catalogs.loadTable(glue, TableIdentifier.of("nodb", "events")))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot load table nodb.events from catalog 'glue': no such table (namespace nodb"
                + " does not exist; namespaces: [obs])");

    OnboardingException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            OnboardingException.class,
            () ->
                node.registry()
                    .onboard(
                        TableConfig.builder(new TableIdentity(CATALOG, "nodb", "events")).build()));
    assertThat(refused.violations())
        .extracting(Violation::message)
        .containsExactly(
            "Cannot load table nodb.events from catalog 'glue': no such table (check"
                + " table.namespace and table.name)");
  }

  private static String clusterYaml(int motoPort, Path nodeDir) {
    return """
        segment-store: s3://%s/_shelfmark/segments/
        data-dir: %s
        storage:
          type: s3
          endpoint: %s
          region: %s
          path-style-access: true
          access-key-id: %s
          secret-access-key: %s
        catalog:
          type: glue
          name: %s
          warehouse: %s
          properties:
            glue.endpoint: http://127.0.0.1:%d
            client.credentials-provider: %s
        cache:
          memory:
            max-size: 32MiB
          disk:
            max-size: 0
        """
        .formatted(
            LocalLake.BUCKET,
            nodeDir,
            lake.s3().endpoint(),
            EmbeddedS3Server.REGION,
            lake.s3().accessKey(),
            lake.s3().secretKey(),
            CATALOG,
            LocalLake.WAREHOUSE,
            motoPort,
            TestingAwsCredentials.class.getName());
  }

  private static void awaitServed(long snapshotId) {
    await()
        .atMost(Duration.ofSeconds(90))
        .until(
            () -> {
              ServedTable served = node.registry().table("obs.events").orElseThrow();
              return served.snapshotId() == snapshotId && served.segmentsPending() == 0;
            });
    ServedTable served = node.registry().table("obs.events").orElseThrow();
    assertThat(served.segmentsFailed()).as(served.failures().toString()).isZero();
  }

  private static void checkAnswers(IcebergScenario scenario) throws Exception {
    scenario.state().registerIn(duckDb, "obs", "events");
    long snapshot = scenario.table().currentSnapshot().snapshotId();
    for (String sql :
        List.of(
            "SELECT COUNT(*) FROM obs.events",
            "SELECT COUNT(*), MIN(id), MAX(id), SUM(quantity) FROM obs.events"
                + " WHERE id BETWEEN 10 AND 150",
            "SELECT category, COUNT(*), SUM(quantity) FROM obs.events"
                + " GROUP BY category ORDER BY category NULLS FIRST",
            "SELECT id, category, quantity FROM obs.events WHERE id < 60 AND category <> 'c1'"
                + " ORDER BY id LIMIT 15")) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      assertThat(response.path("exceptions")).as(sql).isEmpty();
      QueryResult expected = duckDb.query(sql);
      ResultComparison.assertEquivalent(
          expected, resultOf(response), sql.contains("ORDER BY"), 1e-9);
      assertThat(response.path("snapshotId").asLong()).as(sql).isEqualTo(snapshot);
    }
  }

  private static QueryResult resultOf(JsonNode response) {
    JsonNode schema = response.path("resultTable").path("dataSchema");
    List<String> columns = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (JsonNode name : schema.path("columnNames")) {
      columns.add(name.asText());
    }
    for (JsonNode type : schema.path("columnDataTypes")) {
      types.add(type.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        JsonNode value = row.get(c);
        values.add(
            value.isNull()
                ? null
                : switch (types.get(c)) {
                  case "INT", "LONG" -> value.asLong();
                  case "FLOAT", "DOUBLE" -> value.asDouble();
                  case "BIG_DECIMAL" -> new BigDecimal(value.asText());
                  case "BOOLEAN" -> value.asBoolean();
                  default -> value.asText();
                });
      }
      rows.add(values);
    }
    return new QueryResult(columns, rows);
  }

  /** Starts moto's server and waits until it answers; its output goes to a log in the temp dir. */
  private static Process startMoto(String python, int port) throws IOException {
    Path log = directory.resolve("moto.log");
    Process process =
        new ProcessBuilder(
                python, "-m", "moto.server", "-H", "127.0.0.1", "-p", Integer.toString(port))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest probe =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/moto-api/"))
            .timeout(Duration.ofSeconds(2))
            .build();
    try {
      await()
          .atMost(MOTO_START)
          .pollInterval(Duration.ofMillis(200))
          .until(
              () -> {
                if (!process.isAlive()) {
                  throw new IllegalStateException(
                      "Cannot start moto's Glue server on port %s: it exited with %s: %s"
                          .formatted(
                              port,
                              process.exitValue(),
                              Files.readString(log, StandardCharsets.UTF_8)));
                }
                try {
                  return http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode()
                      == 200;
                } catch (IOException e) {
                  return false; // not listening yet
                }
              });
    } catch (RuntimeException e) {
      process.destroyForcibly();
      throw e;
    }
    return process;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
