package io.shelfmark.distribution;

import static io.shelfmark.distribution.UnpackedDistribution.freePort;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.BrokerNode;
import io.shelfmark.cli.process.ReadyFile;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bootstrap script of the tarball, run as a coordinator and as a server against temporary roots
 * (SHELFMARK_INSTALL_SYSTEM=false) over a local lake: it writes each role's config, env file and
 * the systemd units; the processes started from the unpacked tarball with exactly those files
 * (ZooKeeper, controller, broker, server) onboard the benchmark table and answer as DuckDB does.
 */
class TestBootstrap {
  private static final long ROWS = 20_000;
  private static final String VERSION = "test-1";

  @TempDir Path directory;

  @Test
  void bootstrappedNodesServeTheBenchmarkTable() throws Exception {
    UnpackedDistribution dist = UnpackedDistribution.unpack(directory.resolve("dist"));
    Path script = dist.home().resolve("deploy/bootstrap/shelfmark-bootstrap.sh");
    List<Process> processes = new ArrayList<>();
    try (LocalLake lake = LocalLake.start(directory.resolve("lake"), 0);
        DuckDbOracle duckDb = DuckDbOracle.open()) {
      TableConfig table = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
      generate(lake, table);

      int zookeeperPort = freePort();
      int controllerPort = freePort();
      int brokerPort = freePort();
      Map<String, String> common = new LinkedHashMap<>();
      common.put("SHELFMARK_INSTALL_SYSTEM", "false");
      common.put("SHELFMARK_DIST_URL", "file://" + UnpackedDistribution.tarball());
      common.put("SHELFMARK_VERSION", VERSION);
      common.put("SHELFMARK_CLUSTER_NAME", "bootstrap-test");
      common.put("SHELFMARK_HOST", "127.0.0.1");
      common.put("SHELFMARK_ZOOKEEPER_CONNECT", "127.0.0.1:" + zookeeperPort);
      common.put("SHELFMARK_ZOOKEEPER_PORT", Integer.toString(zookeeperPort));
      common.put("SHELFMARK_CONTROLLER_HTTP_PORT", Integer.toString(controllerPort));
      common.put("SHELFMARK_BROKER_HTTP_PORT", Integer.toString(brokerPort));
      common.put("SHELFMARK_BROKER_FLIGHT_PORT", Integer.toString(freePort()));
      common.put("SHELFMARK_STORAGE_REGION", EmbeddedS3Server.REGION);
      common.put("SHELFMARK_STORAGE_ENDPOINT", lake.s3().endpoint().toString());
      common.put("SHELFMARK_CATALOG_TYPE", lake.catalogConfig().type().configName());
      common.put("SHELFMARK_CATALOG_NAME", lake.catalogConfig().name());
      common.put("SHELFMARK_CATALOG_URI", lake.catalogConfig().uri().orElseThrow());
      common.put("SHELFMARK_CATALOG_WAREHOUSE", lake.catalogConfig().warehouse().orElseThrow());
      common.put("SHELFMARK_SEGMENT_STORE", "s3://" + LocalLake.BUCKET + "/_shelfmark/segments");
      common.put("SHELFMARK_DATA_DIR", "/var/lib/shelfmark");
      common.put("SHELFMARK_MEMORY_MB", "2048");
      common.put("SHELFMARK_DISK_GB", "4");

      Path coordinator = bootstrap(script, directory.resolve("coordinator"), "coordinator", common);
      Map<String, String> server = new LinkedHashMap<>(common);
      server.put("SHELFMARK_SERVER_RPC_PORT", Integer.toString(freePort()));
      Path serverRoot = bootstrap(script, directory.resolve("server-1"), "server", server);

      // What the coordinator's bootstrap wrote.
      for (String process : List.of("zookeeper", "controller", "broker")) {
        Map<String, String> env = envFile(coordinator.resolve("etc/shelfmark/" + process + ".env"));
        assertThat(env.get("SHELFMARK_JAVA_OPTS"))
            .as("a fixed heap and the OOM exit for %s", process)
            .matches("-Xms(\\d+)m -Xmx\\1m .*")
            .contains("-XX:+ExitOnOutOfMemoryError");
      }
      assertThat(
              envFile(coordinator.resolve("etc/shelfmark/zookeeper.env"))
                  .get("SHELFMARK_JAVA_OPTS"))
          .startsWith("-Xms256m -Xmx256m ");
      assertThat(envFile(serverRoot.resolve("etc/shelfmark/server.env")).get("SHELFMARK_JAVA_OPTS"))
          .startsWith("-Xms1024m -Xmx1024m ");
      ClusterConfig broker =
          ConfigLoader.withoutEnvironment()
              .loadCluster(coordinator.resolve("etc/shelfmark/broker.yaml"));
      assertThat(broker.roles()).containsExactly(Role.BROKER);
      assertThat(broker.ports().brokerHttpPort()).isEqualTo(brokerPort);
      assertThat(broker.zookeeper().connect()).contains("127.0.0.1:" + zookeeperPort);
      assertThat(broker.dataDir()).isEqualTo(coordinator.resolve("var/lib/shelfmark/broker"));
      ClusterConfig serverConfig =
          ConfigLoader.withoutEnvironment()
              .loadCluster(serverRoot.resolve("etc/shelfmark/server.yaml"));
      assertThat(serverConfig.roles()).containsExactly(Role.SERVER);
      // Cache bounds derived from memory and disk: 40 % of the 1 GiB heap, 40 % of 4 GiB.
      assertThat(serverConfig.cache().memoryMaxSize().bytes()).isEqualTo(409L << 20);
      assertThat(serverConfig.cache().diskMaxSize().bytes()).isEqualTo(1638L << 20);
      assertThat(serverRoot.resolve("etc/shelfmark/controller.yaml")).doesNotExist();
      Path unit = coordinator.resolve("etc/systemd/system/shelfmark@.service");
      assertThat(Files.readString(unit))
          .contains(
              "ExecStart="
                  + coordinator
                  + "/opt/shelfmark/current/bin/shelfmark %i $SHELFMARK_ARGS")
          .contains("ReadWritePaths=" + coordinator + "/var/lib/shelfmark")
          .contains("Restart=on-failure")
          .doesNotContain("@ROOT@");
      assertThat(
              coordinator.resolve(
                  "etc/systemd/system/shelfmark@controller.service.d/zookeeper.conf"))
          .isRegularFile();
      SystemdVerify.verify(unit, List.of("zookeeper", "controller", "broker"), directory);

      // Start each process as its unit would: the launcher, the role, SHELFMARK_ARGS and
      // SHELFMARK_JAVA_OPTS from its env file, in its data directory. The credentials of the
      // embedded S3 server stand in for the instance profile.
      Map<String, String> credentials =
          Map.of(
              "AWS_ACCESS_KEY_ID", lake.s3().accessKey(),
              "AWS_SECRET_ACCESS_KEY", lake.s3().secretKey());
      Map<String, ReadyFile> ready = new HashMap<>();
      for (String process : List.of("zookeeper", "controller", "broker")) {
        ready.put(process, start(coordinator, process, credentials, processes));
      }
      ready.put("server", start(serverRoot, "server", credentials, processes));
      assertThat(ready.get("broker").ports()).containsEntry(BrokerNode.HTTP_PORT, brokerPort);

      // Onboard the benchmark table and compare the answers with DuckDB's.
      BrokerClient controller = new BrokerClient("http://127.0.0.1:" + controllerPort);
      String name =
          controller.onboard(ConfigWriter.write(table, ConfigFormat.YAML)).path("name").asText();
      BrokerClient queries = new BrokerClient("http://127.0.0.1:" + brokerPort);
      awaitServed(controller, queries, name);
      duckDb.registerTable("obs.metrics", parquetFiles(lake));
      for (String query : List.of("Q1", "Q2")) {
        String sql = Quickstart.BENCHMARK_QUERIES.get(query);
        JsonNode response = queries.query(sql, Optional.of(Duration.ofSeconds(60)));
        assertThat(response.path("exceptions").isEmpty()).as("%s: %s", query, response).isTrue();
        ResultComparison.assertEquivalent(
            duckDb.query(sql), resultOf(response), true, ResultComparison.DEFAULT_TOLERANCE);
      }
      JsonNode count = queries.query("SELECT COUNT(*) FROM obs.metrics", Optional.empty());
      assertThat(count.path("resultTable").path("rows").path(0).path(0).asLong()).isEqualTo(ROWS);
    } finally {
      for (Process process : processes.reversed()) {
        UnpackedDistribution.stop(process);
      }
    }
  }

  /** Runs the bootstrap script under {@code root} with {@code settings} in its bootstrap.env. */
  private static Path bootstrap(Path script, Path root, String kind, Map<String, String> settings)
      throws Exception {
    Files.createDirectories(root.resolve("etc/shelfmark"));
    StringBuilder env = new StringBuilder("# written by TestBootstrap as Terraform would\n");
    Map<String, String> all = new LinkedHashMap<>(settings);
    all.put("SHELFMARK_NODE_KIND", kind);
    all.forEach((key, value) -> env.append(key).append("='").append(value).append("'\n"));
    Files.writeString(root.resolve("etc/shelfmark/bootstrap.env"), env);
    String output =
        UnpackedDistribution.run(
            List.of("bash", script.toString()),
            Files.createDirectories(root.resolveSibling(root.getFileName() + "-work")),
            Map.of("SHELFMARK_ROOT", root.toString()));
    assertThat(output)
        .contains("skipped (SHELFMARK_INSTALL_SYSTEM=false): dnf install")
        .contains("skipped (SHELFMARK_INSTALL_SYSTEM=false): systemctl enable --now")
        .contains("shelfmark-bootstrap: done");
    assertThat(root.resolve("opt/shelfmark/current/bin/shelfmark")).isExecutable();
    assertThat(root.resolve("opt/shelfmark/" + VERSION + "/lib")).isDirectory();
    return root;
  }

  private static ReadyFile start(
      Path root, String process, Map<String, String> credentials, List<Process> started)
      throws Exception {
    Map<String, String> env = envFile(root.resolve("etc/shelfmark/" + process + ".env"));
    Map<String, String> node = envFile(root.resolve("etc/shelfmark/shelfmark.env"));
    List<String> command = new ArrayList<>();
    command.add(root.resolve("opt/shelfmark/current/bin/shelfmark").toString());
    command.add(process);
    command.addAll(List.of(env.get("SHELFMARK_ARGS").split(" ")));
    Path ready = root.resolve(process + ".ready");
    command.add("--ready-file=" + ready);
    Map<String, String> environment = new HashMap<>(node);
    environment.putAll(env);
    environment.putAll(credentials);
    Path log = root.resolve(process + ".log");
    Path workDir = root.resolve("var/lib/shelfmark");
    Process started1 = UnpackedDistribution.start(command, workDir, log, environment);
    started.add(started1);
    return ReadyFile.await(
        started1, ready, UnpackedDistribution.START_TIMEOUT, "the " + process, log);
  }

  /** A systemd env file: KEY="value" or KEY=value lines, comments skipped. */
  static Map<String, String> envFile(Path file) throws Exception {
    Map<String, String> values = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int equals = line.indexOf('=');
      String value = line.substring(equals + 1);
      if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
        value = value.substring(1, value.length() - 1);
      }
      values.put(line.substring(0, equals), value);
    }
    return values;
  }

  private static void generate(LocalLake lake, TableConfig table) throws Exception {
    TableIdentifier id = TableIdentifier.of(table.identity().namespace(), table.identity().name());
    if (lake.catalog() instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(Namespace.of(table.identity().namespace()))) {
      namespaces.createNamespace(Namespace.of(table.identity().namespace()));
    }
    MetricsTableGenerator.generate(
        lake.catalog(),
        id,
        GeneratorOptions.builder().rows(ROWS).existingTable(ExistingTablePolicy.REUSE).build(),
        (written, total) -> {});
  }

  /** The table's Parquet files as the embedded S3 server keeps them (one snapshot, all live). */
  private static List<Path> parquetFiles(LocalLake lake) throws Exception {
    try (Stream<Path> files = Files.walk(lake.s3().baseDirectory())) {
      return files.filter(file -> file.toString().endsWith(".parquet")).sorted().toList();
    }
  }

  private static void awaitServed(BrokerClient controller, BrokerClient broker, String name)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    while (true) {
      JsonNode status = controller.table(name).orElseThrow();
      if (status.path("segmentsPending").asLong(-1) == 0) {
        JsonNode answer =
            broker.query("SELECT COUNT(*) FROM " + name, Optional.of(Duration.ofSeconds(30)));
        if (answer.path("exceptions").isEmpty()
            && answer.path("snapshotId").asLong() == status.path("snapshotId").asLong()) {
          return;
        }
      }
      assertThat(System.nanoTime())
          .as("%s served within 5 min: %s", name, status)
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private static QueryResult resultOf(JsonNode response) {
    List<String> columns = new ArrayList<>();
    for (JsonNode column : response.path("resultTable").path("dataSchema").path("columnNames")) {
      columns.add(column.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (JsonNode value : row) {
        values.add(
            value.isNull()
                ? null
                : value.isIntegralNumber()
                    ? (Object) value.asLong()
                    : value.isNumber() ? (Object) value.asDouble() : value.asText());
      }
      rows.add(values);
    }
    return QueryResult.normalized(columns, rows);
  }
}
