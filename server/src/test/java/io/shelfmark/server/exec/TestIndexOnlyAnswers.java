package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Index-only answers, against DuckDB over the same files: GROUP BY / COUNT(DISTINCT) / MIN / MAX of
 * columns with an inverted index but no forward index ({@code test.types}'s {@code s} and {@code
 * b}: values read back from the posting lists), and {@code LIKE 'prefix%'} / {@code NOT LIKE} /
 * {@code IN} / {@code NOT IN} answered from the dictionary's order. The table has NULLs in every
 * column and an empty string, deletes in one segmented file, and a file without a segment (read
 * from Parquet, the normal path, in the same query); filters on columns without an exact index
 * ({@code d}: range only, but {@code f} has no inverted index to read values from) keep the Parquet
 * path. Random filters and shapes, seeded ({@code -Dshelfmark.test.seed=N}).
 */
class TestIndexOnlyAnswers {
  private static final Logger log = LoggerFactory.getLogger(TestIndexOnlyAnswers.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 300);

  private static final List<String> FILTERS =
      List.of(
          "s LIKE 'v1%'",
          "s LIKE 'v2_x%'",
          "s NOT LIKE 'v1%'",
          "s LIKE 'v%'",
          "s LIKE '%x'",
          "s IN ('v1', 'v2_x', 'v7', 'absent')",
          "s NOT IN ('v1', 'v3_x')",
          "s = ''",
          "s IS NULL",
          "b = true",
          "b IS NOT NULL",
          "i > 20",
          "i BETWEEN -10 AND 40",
          "i IN (1, 2, 3, 50)",
          "id < 3000",
          "d > 100.5",
          "m['k1'] LIKE 'a%'",
          "m['k1'] IN ('a1', 'a3')");

  private static final List<String> SHAPES =
      List.of(
          "SELECT s, COUNT(*) FROM test.types%s GROUP BY s",
          "SELECT b, COUNT(*) FROM test.types%s GROUP BY b",
          "SELECT s, b, COUNT(*) FROM test.types%s GROUP BY s, b",
          "SELECT COUNT(DISTINCT s) FROM test.types%s",
          "SELECT COUNT(DISTINCT b), COUNT(s) FROM test.types%s",
          "SELECT MIN(s), MAX(s) FROM test.types%s",
          "SELECT COUNT(*) FROM test.types%s",
          "SELECT s, SUM(d) FROM test.types%s GROUP BY s");

  @Test
  void indexOnlyAnswersEqualDuckDb() throws IOException {
    log.info("Index-only answers: seed {} (rerun with -Dshelfmark.test.seed={})", SEED, SEED);
    TestingLakeTables lake = TestingLakeTables.shared();
    SplittableRandom random = new SplittableRandom(SEED);
    Map<Mode, TestingEngine> engines = new EnumMap<>(Mode.class);
    List<String> failures = new ArrayList<>();
    long indexOnlyFiles = 0;
    try {
      for (Mode mode : List.of(Mode.PINNED, Mode.REMOTE)) {
        engines.put(mode, new TestingEngine(lake, lake.types, mode));
      }
      for (int q = 0; q < QUERIES; q++) {
        String sql = SHAPES.get(random.nextInt(SHAPES.size())).formatted(where(random));
        QueryResult expected = lake.oracle.query(sql);
        for (Map.Entry<Mode, TestingEngine> engine : engines.entrySet()) {
          Optional<String> difference;
          try {
            difference =
                ResultComparison.difference(
                    expected, engine.getValue().query(sql), false, 1e-9, Map.of());
            ExecutionStatistics statistics = engine.getValue().partial(sql).statistics();
            indexOnlyFiles += statistics.filesAnsweredFromSegment();
          } catch (RuntimeException e) {
            difference = Optional.of("failed: " + e);
          }
          if (difference.isPresent() && failures.size() < 10) {
            failures.add("[" + engine.getKey() + " #" + q + "] " + sql + "\n" + difference.get());
          }
        }
      }
    } finally {
      for (TestingEngine engine : engines.values()) {
        engine.close();
      }
    }
    assertThat(failures).as("seed %d", SEED).isEmpty();
    assertThat(indexOnlyFiles).as("files answered from the segments alone").isPositive();
  }

  @Test
  void groupByOfAnInvertedOnlyColumnUnderAnIndexedFilterReadsNoPage() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      for (String sql :
          List.of(
              "SELECT s, COUNT(*) FROM test.types WHERE s LIKE 'v1%' AND i > 0 GROUP BY s",
              "SELECT COUNT(DISTINCT s) FROM test.types WHERE b = false",
              "SELECT MIN(s), MAX(s) FROM test.types WHERE s NOT IN ('v1', 'v2')",
              "SELECT b, COUNT(*) FROM test.types GROUP BY b")) {
        ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 1e-9);
        ExecutionStatistics statistics = engine.partial(sql).statistics();
        // Two files have segments (one with deletes), the third is read from Parquet.
        assertThat(statistics.segmentsQueried()).as(sql).isEqualTo(2);
        assertThat(statistics.filesAnsweredFromSegment()).as(sql).isEqualTo(2);
        assertThat(statistics.filesReadWithoutSegment()).as(sql).isEqualTo(1);
      }
    }
  }

  private static String where(SplittableRandom random) {
    int terms = random.nextInt(3);
    if (terms == 0) {
      return "";
    }
    List<String> chosen = new ArrayList<>();
    for (int t = 0; t < terms; t++) {
      chosen.add(FILTERS.get(random.nextInt(FILTERS.size())));
    }
    String joiner = random.nextInt(4) == 0 ? " OR " : " AND ";
    return " WHERE " + String.join(joiner, chosen);
  }
}
