package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.quickstart.Quickstart;
import io.shelfmark.cli.quickstart.TestQuickstart;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.latency.LatencyInjectingProxy;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Object storage that misbehaves as S3 does under load: 5% of requests answered {@code 503
 * SlowDown} and 1% of connections reset, by a fault layer in front of the embedded S3 server that
 * every data and segment read of the node crosses. A stream of queries (the benchmark's four and
 * random ones) gets no wrong answer and no failure, each within its deadline, and the storage
 * retries that hid the faults show in the responses' statistics.
 */
class TestStorageFaults {
  private static final Logger log = LoggerFactory.getLogger(TestStorageFaults.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir Path directory;
  private LocalLake lake;
  private LatencyInjectingProxy proxy;
  private ObjectStore proxiedStore;
  private AllInOne node;
  private DuckDbOracle duckDb;

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {node, duckDb, proxiedStore, proxy, lake}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void queriesAnswerRightAndInTimeWhileStorageThrottlesAndResets() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    TableConfig table = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of(table.identity().namespace()));
    }
    TableIdentifier id = TableIdentifier.of(table.identity().namespace(), table.identity().name());
    MetricsTableGenerator.generate(
        lake.catalog(),
        id,
        GeneratorOptions.builder().rows(20_000).existingTable(ExistingTablePolicy.REUSE).build(),
        (written, total) -> {});
    proxy =
        LatencyInjectingProxy.builder()
            .backend(lake.s3().endpoint())
            .latency(Duration.ZERO)
            .slowDownRate(0.05)
            .resetRate(0.01)
            .seed(SEED)
            .build();
    proxy.start();
    StorageConfig faulty = ProxiedLake.withEndpoint(lake.storageConfig(), proxy.endpoint());
    proxiedStore = ObjectStores.open(faulty);
    // Remote segments and no disk tier: every query reads segments and pages from storage.
    ClusterConfig config =
        ClusterConfig.builder()
            .storage(faulty)
            .catalog(lake.catalogConfig())
            .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments/")
            .dataDir(directory.resolve("node"))
            .cache(
                CacheConfig.builder()
                    .memoryMaxSize(DataSize.of(4, DataSize.Unit.MEBIBYTE))
                    .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
                    .build(directory.resolve("node")))
            .segmentMode(SegmentMode.REMOTE)
            .build();
    node = AllInOne.start(config, Map.of(LocalLake.CATALOG_NAME, lake.catalog()), proxiedStore, 0);
    String name = node.registry().onboard(table).sqlName();
    awaitIndexed(name);

    duckDb = DuckDbOracle.open();
    List<Path> files = new ArrayList<>();
    for (DataFileInfo file : TableSnapshot.current(lake.catalog().loadTable(id)).dataFiles()) {
      files.add(lake.s3().baseDirectory().resolve(file.path().substring("s3://".length())));
    }
    duckDb.registerTable(name, files);

    Map<String, String[]> queries = new LinkedHashMap<>();
    Quickstart.BENCHMARK_QUERIES.forEach(
        (key, sql) ->
            queries.put(key, new String[] {sql, TestQuickstart.DUCKDB_QUERIES.get(key), "true"}));
    log.info("Random queries over faulty storage: seed {} (-Dshelfmark.test.seed={})", SEED, SEED);
    TableDescription description =
        new TableDescription(
            name,
            List.of(
                Column.of("org_id", ColumnKind.LONG),
                Column.of("metric", ColumnKind.STRING),
                Column.of("resolution", ColumnKind.INT),
                Column.epochMillis("logical_timestamp"),
                Column.of("sum_rollup", ColumnKind.DOUBLE),
                Column.of("latest_rollup", ColumnKind.DOUBLE),
                Column.map("dimensions", List.of("service", "region", "node"))));
    RandomQueryGenerator generator =
        new RandomQueryGenerator(description, ValueDomain.sample(duckDb, description, 12), SEED);
    List<GeneratedQuery> random = new ArrayList<>();
    for (int q = 0; q < 40; q++) {
      random.add(generator.next());
    }

    proxy.reset();
    BrokerClient broker = new BrokerClient(node.url());
    List<String> failures = new ArrayList<>();
    long retries = 0;
    for (Map.Entry<String, String[]> query : queries.entrySet()) {
      retries +=
          check(
              broker,
              query.getKey(),
              query.getValue()[0],
              query.getValue()[1],
              true,
              Map.of(),
              failures);
    }
    for (int q = 0; q < random.size(); q++) {
      GeneratedQuery query = random.get(q);
      retries +=
          check(
              broker,
              "#" + q + " " + query.shelfmarkSql(),
              query.shelfmarkSql(),
              query.duckDbSql(),
              query.ordered(),
              query.approximateColumns(),
              failures);
    }
    long slowDowns = proxy.counters().slowDowns();
    long resets = proxy.counters().resets();
    log.info(
        "Over faulty storage: {} requests, {} answered 503 SlowDown, {} reset; {} retries in the"
            + " responses",
        proxy.counters().snapshot().requests(),
        slowDowns,
        resets,
        retries);
    assertThat(failures).as("seed %s: queries over faulty storage", SEED).isEmpty();
    assertThat(slowDowns).as("503 SlowDown injected").isPositive();
    assertThat(resets).as("connections reset").isPositive();
    // Each fault the queries met cost one retry; background reads may have met some too.
    assertThat(retries)
        .as("storage retries counted in the responses")
        .isPositive()
        .isLessThanOrEqualTo(slowDowns + resets);
  }

  /** Runs one query; adds a failure when it fails, is late or differs from DuckDB's answer. */
  private long check(
      BrokerClient broker,
      String what,
      String sql,
      String duckDbSql,
      boolean ordered,
      Map<Integer, Double> approximate,
      List<String> failures) {
    long start = System.nanoTime();
    JsonNode response = broker.query(sql, Optional.of(TIMEOUT));
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    if (elapsed.compareTo(TIMEOUT.multipliedBy(11).dividedBy(10).plusMillis(100)) > 0) {
      failures.add(what + ": answered after " + elapsed.toMillis() + " ms");
    }
    if (!response.path("exceptions").isEmpty()) {
      failures.add(what + ": " + response.path("exceptions"));
      return 0;
    }
    ResultComparison.difference(
            duckDb.query(duckDbSql), TestQuickstart.resultOf(response), ordered, 1e-9, approximate)
        .ifPresent(difference -> failures.add(what + ": " + difference));
    return response.path("storageRetries").asLong();
  }

  private void awaitIndexed(String name) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    while (true) {
      var table = node.registry().table(name).orElseThrow();
      if (table.segmentsReady() == table.dataFiles() && table.dataFiles() > 0) {
        return;
      }
      assertThat(System.nanoTime()).as("%s indexed within 3 minutes", name).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
