package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.FinalResult;
import io.shelfmark.exchange.result.ResultFinisher;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MIN/MAX, without GROUP BY or grouped by one inverted-indexed column, from range and inverted
 * indexes ({@link IndexExtremes}), against DuckDB and against the same files read without their
 * segments: random exact filters and random lists of MIN/MAX/COUNT over {@code test.types}'s
 * range-indexed ({@code id, l, d, f, dt, ts}), inverted-indexed ({@code i, s, b}) and map-key
 * columns, with NULLs in every column, deletes in one segmented file, a file without segment, and
 * columns without an index ({@code dec}) or filters that are not exact, which keep the row path.
 * Seeded ({@code -Dshelfmark.test.seed=N}).
 */
class TestIndexExtremes {
  private static final Logger log = LoggerFactory.getLogger(TestIndexExtremes.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 200);

  private static final List<String> COLUMNS =
      List.of("id", "i", "l", "d", "f", "s", "b", "dt", "ts", "m['k1']", "m['k2']", "\"dec\"");

  /** Group keys: inverted-indexed (s, b, i, map keys), range-only (l: the row path). */
  private static final List<String> KEYS = List.of("s", "b", "i", "m['k1']", "m['k2']", "l");

  private static final List<String> FILTERS =
      List.of(
          "",
          "s LIKE 'v1%'",
          "s IN ('v1', 'v2_x', 'absent')",
          "b = true",
          "i > 20",
          "i BETWEEN -10 AND 40",
          "l < 0",
          "d > 100.5",
          "id < 3000",
          "id >= 7400",
          "dt >= DATE '2025-01-10'",
          "ts < TIMESTAMP '2025-01-01 01:00:00'",
          "m['k1'] = 'a2'",
          "i IS NULL",
          "s = 'absent'",
          "l + 1 > 5");

  @Test
  void randomExtremesEqualDuckDbAndTheRowPath() throws IOException {
    log.info("Index extremes: seed {} (rerun with -Dshelfmark.test.seed={})", SEED, SEED);
    TestingLakeTables lake = TestingLakeTables.shared();
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> failures = new ArrayList<>();
    long fromIndexes = 0;
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      List<FileTask> withoutSegments = new ArrayList<>();
      for (FileTask task : engine.tasks()) {
        withoutSegments.add(new FileTask(task.file(), Optional.empty(), task.deletedPositions()));
      }
      for (int q = 0; q < QUERIES && failures.size() < 10; q++) {
        String sql = query(random);
        try {
          ResultComparison.difference(
                  lake.oracle.query(sql), engine.query(sql), false, 1e-9, Map.of())
              .ifPresent(d -> failures.add("[DuckDB] " + sql + "\n" + d));
          FinalResult indexed = engine.finalResult(sql);
          FinalResult rows =
              ResultFinisher.finish(engine.plan(sql), engine.partial(sql, withoutSegments));
          if (!new java.util.HashSet<>(indexed.rows()).equals(new java.util.HashSet<>(rows.rows()))
              || indexed.rows().size() != rows.rows().size()) {
            failures.add("[row path] " + sql + "\n" + indexed.rows() + " vs " + rows.rows());
          }
          fromIndexes += engine.partial(sql).statistics().filesAnsweredFromSegment();
        } catch (RuntimeException e) {
          failures.add("[failed] " + sql + ": " + e);
        }
      }
    }
    assertThat(failures).as("seed %d", SEED).isEmpty();
    assertThat(fromIndexes).as("files answered from the segments alone").isPositive();
  }

  @Test
  void extremesOfRangeIndexedColumnsReadNoPage() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      for (String sql :
          List.of(
              "SELECT MIN(l), MAX(l), MIN(d), MAX(f) FROM test.types",
              "SELECT MIN(ts), MAX(dt), COUNT(*), COUNT(l) FROM test.types WHERE s LIKE 'v1%'",
              "SELECT MAX(d) FROM test.types WHERE i IS NULL AND b = false",
              "SELECT MIN(l) FROM test.types WHERE s = 'absent'",
              "SELECT s, MIN(l), MAX(ts), COUNT(*) FROM test.types WHERE i > 0 GROUP BY s",
              "SELECT m['k1'], MIN(d), MAX(s) FROM test.types GROUP BY m['k1']")) {
        ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 1e-9);
        ExecutionStatistics statistics = engine.partial(sql).statistics();
        // Two files have segments (one with deletes); the third is read from Parquet.
        assertThat(statistics.filesAnsweredFromSegment()).as(sql).isEqualTo(2);
        assertThat(statistics.filesReadWithoutSegment()).as(sql).isEqualTo(1);
      }
      // No index on dec: the row path reads its pages.
      String sql = "SELECT MIN(\"dec\"), MAX(l) FROM test.types";
      ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 1e-9);
      assertThat(engine.partial(sql).statistics().filesAnsweredFromSegment()).isZero();
    }
  }

  private static String query(SplittableRandom random) {
    List<String> aggregates = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int a = 0; a < count; a++) {
      String column = COLUMNS.get(random.nextInt(COLUMNS.size()));
      aggregates.add(
          switch (random.nextInt(6)) {
            case 0 -> "COUNT(*)";
            case 1 -> "COUNT(" + column + ")";
            case 2, 3 -> "MIN(" + column + ")";
            default -> "MAX(" + column + ")";
          });
    }
    String filter = FILTERS.get(random.nextInt(FILTERS.size()));
    if (!filter.isEmpty() && random.nextInt(3) == 0) {
      filter = filter + " AND " + FILTERS.get(1 + random.nextInt(FILTERS.size() - 1));
    }
    String key = random.nextBoolean() ? "" : KEYS.get(random.nextInt(KEYS.size()));
    return "SELECT "
        + (key.isEmpty() ? "" : key + ", ")
        + String.join(", ", aggregates)
        + " FROM test.types"
        + (filter.isEmpty() ? "" : " WHERE " + filter)
        + (key.isEmpty() ? "" : " GROUP BY " + key);
  }
}
