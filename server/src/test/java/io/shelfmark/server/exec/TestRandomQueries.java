package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.server.exec.TestingLakeTables.TestingTable;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import io.shelfmark.testing.query.Column;
import io.shelfmark.testing.query.ColumnKind;
import io.shelfmark.testing.query.GeneratedQuery;
import io.shelfmark.testing.query.RandomQueryGenerator;
import io.shelfmark.testing.query.TableDescription;
import io.shelfmark.testing.query.ValueDomain;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Differential test: random queries ({@link RandomQueryGenerator}) over both test tables, run on
 * the server and on DuckDB over the same files (deletes applied in both), results equal: integers
 * exactly, doubles within a relative 1e-9 (sums in another order), DISTINCTCOUNTHLL within {@link
 * RandomQueryGenerator#HLL_TOLERANCE} of the exact count.
 *
 * <p>Every query runs in all three storage modes: pinned segments with the page cache ({@code
 * PINNED_PAGES}), and the two modes that read pages from S3 ({@code REMOTE}, {@code PINNED}).
 * {@code -Dshelfmark.test.allModesEvery=N} runs the S3 modes on every N-th query only, for quick
 * local iterations. The seed is logged and can be fixed with {@code -Dshelfmark.test.seed=N}; the
 * number of queries with {@code -Dshelfmark.test.queries=N} (default 600 over obs.metrics and 400
 * over test.types: 1,000 per run).
 */
class TestRandomQueries {
  private static final Logger log = LoggerFactory.getLogger(TestRandomQueries.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 1000);
  private static final int ALL_MODES_EVERY = Integer.getInteger("shelfmark.test.allModesEvery", 1);
  private static final double TOLERANCE = 1e-9;

  @Test
  void metricsQueriesEqualDuckDb() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
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
    run(lake, lake.metrics, table, SEED, QUERIES * 3 / 5);
  }

  @Test
  void typesQueriesEqualDuckDb() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    TableDescription table =
        new TableDescription(
            "test.types",
            List.of(
                Column.of("id", ColumnKind.LONG),
                Column.of("i", ColumnKind.INT),
                Column.of("l", ColumnKind.LONG),
                Column.of("d", ColumnKind.DOUBLE),
                Column.of("s", ColumnKind.STRING),
                Column.of("b", ColumnKind.BOOLEAN),
                Column.of("dt", ColumnKind.DATE),
                Column.of("ts", ColumnKind.TIMESTAMP),
                Column.map("m", List.of("k1", "k2"))));
    run(lake, lake.types, table, SEED + 1, QUERIES - QUERIES * 3 / 5);
  }

  private static void run(
      TestingLakeTables lake,
      TestingTable testTable,
      TableDescription table,
      long seed,
      int queries)
      throws IOException {
    log.info(
        "Random queries over {}: seed {} (rerun with -Dshelfmark.test.seed={}), {} queries",
        table.name(),
        seed,
        seed,
        queries);
    ValueDomain domain = ValueDomain.sample(lake.oracle, table, 12);
    RandomQueryGenerator generator = new RandomQueryGenerator(table, domain, seed);
    Map<Mode, TestingEngine> engines = new EnumMap<>(Mode.class);
    List<String> failures = new ArrayList<>();
    long oracleNanos = 0;
    Map<Mode, Long> engineNanos = new EnumMap<>(Mode.class);
    try {
      for (Mode mode : Mode.values()) {
        engines.put(mode, new TestingEngine(lake, testTable, mode));
      }
      for (int q = 0; q < queries; q++) {
        GeneratedQuery query = generator.next();
        long started = System.nanoTime();
        QueryResult expected = lake.oracle.query(query.duckDbSql());
        oracleNanos += System.nanoTime() - started;
        for (Mode mode : Mode.values()) {
          if (mode != Mode.PINNED_PAGES && q % ALL_MODES_EVERY != 0) {
            continue;
          }
          Optional<String> difference;
          try {
            started = System.nanoTime();
            QueryResult actual = engines.get(mode).query(query.shelfmarkSql());
            engineNanos.merge(mode, System.nanoTime() - started, Long::sum);
            difference =
                ResultComparison.difference(
                    expected, actual, query.ordered(), TOLERANCE, query.approximateColumns());
          } catch (RuntimeException e) {
            difference = Optional.of("failed: " + e);
            log.warn("Query failed: {}", query, e);
          }
          if (difference.isPresent() && failures.size() < 10) {
            failures.add("[" + mode + " #" + q + "] " + query + "\n" + difference.get());
          }
        }
      }
      log.info(
          "{} queries over {}: DuckDB {} ms, Shelfmark by mode {} ms",
          queries,
          table.name(),
          oracleNanos / 1_000_000,
          engineNanos.entrySet().stream()
              .map(e -> e.getKey() + "=" + e.getValue() / 1_000_000)
              .toList());
    } finally {
      for (TestingEngine engine : engines.values()) {
        engine.close();
      }
    }
    assertThat(failures).as("seed %s: queries whose results differ from DuckDB's", seed).isEmpty();
  }
}
