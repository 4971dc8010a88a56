package io.shelfmark.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.io.Closeable;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local cluster of real processes on 127.0.0.1 ({@code cluster up}: the lake, ZooKeeper, a
 * controller, three servers and a broker, each a JVM of its own) over the quickstart's table:
 * answers equal DuckDB's on the benchmark queries and a randomized set; {@code kill -9} of a server
 * during a query stream fails no query and changes no answer (every file has a second replica);
 * {@code cluster down} stops every process.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestLocalCluster {
  private static final Logger log = LoggerFactory.getLogger(TestLocalCluster.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int RANDOM_QUERIES = Integer.getInteger("shelfmark.test.queries", 40);
  private static final long ROWS = 20_000;

  private static Path runDir;
  private static List<ClusterProcess> processes;
  private static BrokerClient broker;
  private static DuckDbOracle duckDb;

  @BeforeAll
  static void up() throws Exception {
    runDir = Files.createTempDirectory("shelfmark-cluster-test");
    processes =
        LocalCluster.up(
            new LocalCluster.Options(runDir, 3, Optional.empty(), ROWS, 384, true),
            new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    broker = new BrokerClient(LocalCluster.url(process("broker")));
    duckDb = DuckDbOracle.open();
    duckDb.registerTable("obs.metrics", dataFiles());
  }

  @AfterAll
  static void down() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (runDir != null) {
      LocalCluster.down(
          runDir, new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    }
  }

  @Test
  @Order(1)
  void everyProcessRunsAndEveryServerServes() {
    List<ClusterStatus.ProcessLine> lines = ClusterStatus.lines(processes);
    assertThat(lines)
        .extracting(line -> line.process().name())
        .containsExactly(
            "lake", "zookeeper", "controller", "server-1", "server-2", "server-3", "broker");
    assertThat(lines).allSatisfy(line -> assertThat(line.alive()).isTrue());
    assertThat(lines)
        .filteredOn(line -> line.process().role().equals("server"))
        .allSatisfy(
            line -> {
              assertThat(line.health()).isEqualTo("MEMBER");
              assertThat(line.detail()).contains("obs.metrics: ");
            });
    assertThat(lines)
        .filteredOn(line -> line.process().role().equals("controller"))
        .singleElement()
        .satisfies(line -> assertThat(line.detail()).isEqualTo("leader"));
  }

  @Test
  @Order(2)
  void answersEqualDuckDbs() throws Exception {
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, String> query : Quickstart.BENCHMARK_QUERIES.entrySet()) {
      compare(
          query.getKey(),
          query.getValue(),
          duckDb.query(TestQuickstart.DUCKDB_QUERIES.get(query.getKey())),
          true,
          Map.of(),
          failures);
    }
    log.info("Random queries through the cluster: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
    TableDescription table =
        new TableDescription(
            "obs.metrics",
            List.of(
                Column.of("org_id", ColumnKind.LONG),
                Column.of("metric", ColumnKind.STRING),
                Column.of("resolution", ColumnKind.INT),
                Column.epochMillis("logical_timestamp"),
                Column.of("sum_rollup", ColumnKind.DOUBLE),
                Column.of("latest_rollup", ColumnKind.DOUBLE),
                Column.map("dimensions", List.of("service", "region", "node"))));
    RandomQueryGenerator generator =
        new RandomQueryGenerator(table, ValueDomain.sample(duckDb, table, 12), SEED);
    for (int q = 0; q < RANDOM_QUERIES; q++) {
      GeneratedQuery query = generator.next();
      compare(
          "#" + q + " " + query.shelfmarkSql(),
          query.shelfmarkSql(),
          duckDb.query(query.duckDbSql()),
          query.ordered(),
          query.approximateColumns(),
          failures);
    }
    assertThat(failures).as("seed %s: answers through the cluster that differ", SEED).isEmpty();
  }

  @Test
  @Order(3)
  void aKilledServerFailsNoQueryWhileItsFilesHaveAnotherReplica() throws Exception {
    String sql =
        "SELECT metric, COUNT(*), SUM(sum_rollup) FROM obs.metrics WHERE resolution = 15000"
            + " GROUP BY metric";
    QueryResult expected = duckDb.query(sql);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger answered = new AtomicInteger();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread stream =
        Thread.ofPlatform()
            .start(
                () -> {
                  while (!stop.get()) {
                    try {
                      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(20)));
                      if (!response.path("exceptions").isEmpty()) {
                        failures.add("error: " + response.path("exceptions"));
                      } else {
                        ResultComparison.difference(
                                expected, TestQuickstart.resultOf(response), false, 1e-9, Map.of())
                            .ifPresent(failures::add);
                        answered.incrementAndGet();
                      }
                    } catch (RuntimeException e) {
                      failures.add(e.toString());
                    }
                  }
                });
    try {
      awaitAnswers(answered, 3);
      ClusterProcess killed = process("server-1");
      ProcessHandle.of(killed.pid()).orElseThrow().destroyForcibly();
      ProcessHandle.of(killed.pid()).ifPresent(handle -> handle.onExit().join());
      int before = answered.get();
      awaitAnswers(answered, before + 10);
    } finally {
      stop.set(true);
      stream.join();
    }
    assertThat(failures).as("answers around a server's kill -9").isEmpty();
    assertThat(ClusterStatus.lines(processes))
        .filteredOn(line -> line.process().name().equals("server-1"))
        .singleElement()
        .satisfies(line -> assertThat(line.health()).isEqualTo("DOWN"));
  }

  @Test
  @Order(4)
  void downStopsEveryProcess() throws Exception {
    int stopped =
        LocalCluster.down(
            runDir, new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8));
    assertThat(stopped).isEqualTo(processes.size() - 1); // server-1 was killed before
    assertThat(processes).noneMatch(ClusterProcess::alive);
    assertThat(LocalCluster.processes(runDir)).isEmpty();
  }

  private static void awaitAnswers(AtomicInteger answered, int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (answered.get() < count) {
      assertThat(System.nanoTime()).as("%s answers within 2 minutes", count).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static void compare(
      String what,
      String sql,
      QueryResult expected,
      boolean ordered,
      Map<Integer, Double> approximate,
      List<String> failures) {
    JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(60)));
    if (!response.path("exceptions").isEmpty()) {
      failures.add(what + ": " + response.path("exceptions"));
      return;
    }
    ResultComparison.difference(
            expected,
            TestQuickstart.resultOf(response),
            ordered,
            ResultComparison.DEFAULT_TOLERANCE,
            approximate)
        .ifPresent(difference -> failures.add(what + ": " + difference));
  }

  private static ClusterProcess process(String name) {
    return processes.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  /** The table's data files in the lake's directory, for DuckDB. */
  private static List<Path> dataFiles() throws Exception {
    ClusterConfig lake =
        ConfigLoader.withoutEnvironment().loadCluster(process("lake").configFile().orElseThrow());
    try (ObjectStore store = ObjectStores.open(lake.storage())) {
      Catalog catalog = Catalogs.open(lake.catalog().orElseThrow(), store);
      try {
        TableSnapshot snapshot =
            TableSnapshot.current(catalog.loadTable(TableIdentifier.of("obs", "metrics")));
        List<Path> files = new ArrayList<>();
        for (DataFileInfo file : snapshot.dataFiles()) {
          files.add(runDir.resolve("lake/s3").resolve(file.path().substring("s3://".length())));
        }
        return files;
      } finally {
        if (catalog instanceof Closeable closeable) {
          closeable.close();
        }
      }
    }
  }
}
