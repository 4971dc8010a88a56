package io.shelfmark.broker.prune;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Property test of file and row-group pruning: random filters over real partitioned tables, every
 * file and row group pruned checked to hold no matching row according to DuckDB over that file (and
 * every ALL_MATCH to hold only matching rows), and pruning shown to happen. Two tables: the
 * generated benchmark table (identity(org_id), truncate[86400000](logical_timestamp), files of
 * disjoint minutes) and a scenario table of all common types whose spec evolves from
 * identity(category) to bucket[2](id) with day(event_time), then to month(event_day) with
 * truncate[50](quantity). The seed is logged; set {@code -Dshelfmark.prune.seed=N} to replay one.
 */
class TestPruningAgainstDuckDb {
  private static final Logger log = LoggerFactory.getLogger(TestPruningAgainstDuckDb.class);
  private static final long SEED = Long.getLong("shelfmark.prune.seed", System.nanoTime());
  private static final int FILTERS = 150;

  @TempDir static Path directory;
  private static ObjectStore store;
  private static Catalog catalog;
  private static DuckDbOracle duckDb;

  @BeforeAll
  static void start() {
    store = ObjectStores.local();
    catalog =
        Catalogs.open(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .name("prune")
                .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                .warehouse(directory.resolve("warehouse").toUri().toString())
                .build(),
            store);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
    duckDb = DuckDbOracle.open();
    // Printed as well as logged: the broker's tests have no logging backend.
    System.out.printf(
        "Pruning property test seed: %d (replay with -Dshelfmark.prune.seed=%d)%n", SEED, SEED);
    log.info("Pruning property test seed: {}", SEED);
  }

  @AfterAll
  static void stop() throws IOException {
    duckDb.close();
    ((Closeable) catalog).close();
    store.close();
  }

  @Test
  void benchmarkTable() throws IOException {
    TableIdentifier id = TableIdentifier.of("obs", "metrics");
    MetricsTableGenerator.generate(
        catalog,
        id,
        GeneratorOptions.builder()
            .rows(30_000)
            .seed(42)
            .parallelism(2)
            .maxRowsPerFile(2_000)
            .rowGroupSize(DataSize.of(32, DataSize.Unit.KIBIBYTE))
            .pageSize(DataSize.of(8, DataSize.Unit.KIBIBYTE))
            .build(),
        ProgressListener.none());
    PruningOracle oracle =
        new PruningOracle(catalog.loadTable(id), duckDb, "obs.metrics", "seed " + SEED);

    // Q2's filter: one org, one hour of one day.
    long q2 =
        oracle.check(
            "metric = 'tk_cache' AND org_id = 184833768 AND resolution = 15000"
                + " AND logical_timestamp >= 1754229600000 - 3600000"
                + " AND logical_timestamp <= 1754229600000");
    assertThat(q2).as("files pruned for Q2").isGreaterThan(oracle.files().size() / 2);
    // Q3/Q4 write org_id as a string; Q4 adds a needle on a map key.
    assertThat(
            oracle.check(
                "metric = 'tk_cache' AND org_id = '184833768' AND resolution = 15000"
                    + " AND dimensions['node'] = 'xyz'"
                    + " AND logical_timestamp >= 1754229600000 - 360000"
                    + " AND logical_timestamp <= 1754229600000"))
        .isGreaterThan(oracle.files().size() / 2);
    // Q1 has no org: only the time range prunes.
    assertThat(
            oracle.check(
                "resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000"
                    + " AND logical_timestamp <= 1754229600000"))
        .isGreaterThan(0);

    Map<String, List<Object>> values = new LinkedHashMap<>();
    for (String column :
        List.of("org_id", "metric", "resolution", "logical_timestamp", "sum_rollup")) {
      values.put(column, widen(oracle.sample(column, 12)));
    }
    for (String key : List.of("service", "region")) {
      values.put("dimensions['" + key + "']", oracle.sample("dimensions['" + key + "']", 8));
    }
    runRandomFilters(oracle, values, SEED);
  }

  @Test
  void scenarioTableOfEveryTypeWithEvolvingSpec() {
    IcebergScenario scenario =
        IcebergScenario.create(
            catalog,
            TableIdentifier.of("obs", "scenario"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.localFiles(),
            SEED,
            Map.of(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1"));
    scenario.append(300);
    scenario.updateSpec(
        "bucket and day",
        spec ->
            spec.removeField("category")
                .addField(Expressions.bucket("id", 2))
                .addField(Expressions.day("event_time")));
    scenario.append(300);
    scenario.updateSpec(
        "month and truncate",
        spec ->
            spec.removeField(Expressions.bucket("id", 2))
                .removeField(Expressions.day("event_time"))
                .addField(Expressions.month("event_day"))
                .addField(Expressions.truncate("quantity", 50)));
    scenario.append(300);
    PruningOracle oracle =
        new PruningOracle(scenario.table(), duckDb, "obs.scenario", "seed " + SEED);
    Map<String, List<Object>> values = new LinkedHashMap<>();
    for (String column :
        List.of("id", "category", "amount", "quantity", "event_time", "event_day", "flag")) {
      values.put(column, widen(oracle.sample(column, 10)));
    }
    runRandomFilters(oracle, values, SEED + 1);
  }

  private static void runRandomFilters(
      PruningOracle oracle, Map<String, List<Object>> values, long seed) {
    PredicateWriter writer = new PredicateWriter(values, seed);
    for (int i = 0; i < FILTERS; i++) {
      oracle.check(writer.next());
    }
    System.out.printf(
        "%d files: pruned %d files (%d all-match) and %d of %d row groups (%d all-match);"
            + " DuckDB %d ms, pruning %d ms%n",
        oracle.files().size(),
        oracle.filesPruned,
        oracle.filesAllMatch,
        oracle.rowGroupsPruned,
        oracle.rowGroups,
        oracle.rowGroupsAllMatch,
        oracle.duckDbNanos / 1_000_000,
        oracle.pruneNanos / 1_000_000);
    assertThat(oracle.filesPruned).as("files pruned by random filters").isGreaterThan(0);
    assertThat(oracle.rowGroupsPruned).as("row groups pruned by random filters").isGreaterThan(0);
    assertThat(oracle.rowGroupsAllMatch).as("row groups found to match whole").isGreaterThan(0);
  }

  /** The sampled values and, for integers, values just past the extremes. */
  private static List<Object> widen(List<Object> sample) {
    List<Object> values = new ArrayList<>(sample);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (Object value : sample) {
      if (value instanceof Long number) {
        min = Math.min(min, number);
        max = Math.max(max, number);
      }
    }
    if (min <= max) {
      values.add(min - 1);
      values.add(max + 1);
    }
    return values;
  }
}
