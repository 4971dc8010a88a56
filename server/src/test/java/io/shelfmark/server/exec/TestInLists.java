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
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code IN} / {@code NOT IN} lists matched against each segment's dictionary once: random lists
 * (short and long, present and absent values, duplicates, a NULL item) on {@code test.types}'s
 * string, integer and map-key columns with NULL rows, answered by the segments and compared with
 * DuckDB and with the normal path (the same files read without their segments). {@code x NOT IN
 * (..., NULL)} is never TRUE and {@code x IN (NULL)} never TRUE either; both are answered from the
 * segments without reading a page. Seeded ({@code -Dshelfmark.test.seed=N}).
 */
class TestInLists {
  private static final Logger log = LoggerFactory.getLogger(TestInLists.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 120);

  private static final List<String> SHAPES =
      List.of(
          "SELECT COUNT(*) FROM test.types WHERE %s",
          "SELECT COUNT(*), COUNT(s), MIN(i), MAX(s) FROM test.types WHERE %s",
          "SELECT s, COUNT(*) FROM test.types WHERE %s GROUP BY s ORDER BY s LIMIT 100",
          "SELECT m['k1'], COUNT(*), SUM(d) FROM test.types WHERE %s GROUP BY m['k1']"
              + " ORDER BY 1 LIMIT 100");

  @Test
  void randomListsEqualDuckDbAndTheNormalPath() throws IOException {
    log.info("IN lists: seed {} (rerun with -Dshelfmark.test.seed={})", SEED, SEED);
    TestingLakeTables lake = TestingLakeTables.shared();
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> failures = new ArrayList<>();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      List<FileTask> withoutSegments = new ArrayList<>();
      for (FileTask task : engine.tasks()) {
        withoutSegments.add(new FileTask(task.file(), Optional.empty(), task.deletedPositions()));
      }
      for (int q = 0; q < QUERIES && failures.size() < 10; q++) {
        String sql = SHAPES.get(random.nextInt(SHAPES.size())).formatted(filter(random));
        try {
          ResultComparison.difference(
                  lake.oracle.query(sql), engine.query(sql), false, 1e-9, java.util.Map.of())
              .ifPresent(d -> failures.add("[DuckDB] " + abbreviated(sql) + "\n" + d));
          FinalResult indexed = engine.finalResult(sql);
          FinalResult normal =
              ResultFinisher.finish(engine.plan(sql), engine.partial(sql, withoutSegments));
          if (!indexed.rows().equals(normal.rows())) {
            failures.add(
                "[normal path] "
                    + abbreviated(sql)
                    + "\nsegments: "
                    + indexed.rows()
                    + "\nno segments: "
                    + normal.rows());
          }
        } catch (RuntimeException e) {
          failures.add("[failed] " + abbreviated(sql) + ": " + e);
        }
      }
    }
    assertThat(failures).as("seed %d", SEED).isEmpty();
  }

  @Test
  void listsThatAreNeverTrueReadNoPage() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      for (String sql :
          List.of(
              "SELECT COUNT(*) FROM test.types WHERE s NOT IN ('v1', NULL)",
              "SELECT COUNT(*) FROM test.types WHERE m['k1'] NOT IN (NULL, 'a1')",
              "SELECT COUNT(*) FROM test.types WHERE i IN (NULL)",
              "SELECT s, COUNT(*) FROM test.types WHERE i NOT IN (1, NULL) OR s = 'v1' GROUP BY s")) {
        ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 1e-9);
        ExecutionStatistics statistics = engine.partial(sql).statistics();
        assertThat(statistics.filesAnsweredFromSegment()).as(sql).isEqualTo(2);
      }
    }
  }

  @Test
  void tenThousandValuesOnAMapKeyAndAStringColumn() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    List<String> items = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      items.add(i % 2 == 0 ? "'a" + (i / 2) + "'" : "'v" + (i / 2) + "'");
    }
    String list = String.join(", ", items);
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      for (String sql :
          List.of(
              "SELECT COUNT(*) FROM test.types WHERE m['k1'] IN (" + list + ")",
              "SELECT COUNT(*) FROM test.types WHERE m['k1'] NOT IN (" + list + ")",
              "SELECT s, COUNT(*) FROM test.types WHERE s IN (" + list + ") GROUP BY s",
              "SELECT COUNT(*) FROM test.types WHERE s NOT IN (" + list + ") AND i > 0")) {
        ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 1e-9);
        ExecutionStatistics statistics = engine.partial(sql).statistics();
        // Both segmented files answered without a page; the third file has no segment.
        assertThat(statistics.filesAnsweredFromSegment()).as(abbreviated(sql)).isEqualTo(2);
      }
    }
  }

  private static String filter(SplittableRandom random) {
    String first = term(random);
    return switch (random.nextInt(4)) {
      case 0 -> first + " AND " + term(random);
      case 1 -> first + " OR " + term(random);
      default -> first;
    };
  }

  private static String term(SplittableRandom random) {
    String not = random.nextInt(3) == 0 ? " NOT" : "";
    int size = random.nextInt(5) == 0 ? 1 + random.nextInt(3_000) : 1 + random.nextInt(6);
    List<String> items = new ArrayList<>();
    int column = random.nextInt(4);
    for (int i = 0; i < size; i++) {
      if (random.nextInt(size > 100 ? 2_000 : 12) == 0) {
        items.add("NULL");
        continue;
      }
      items.add(
          switch (column) {
            case 0, 1 ->
                "'"
                    + (random.nextInt(8) == 0 ? "" : "v" + random.nextInt(30))
                    + (random.nextBoolean() ? "_x" : "")
                    + "'";
            case 2 -> Integer.toString(random.nextInt(-60, 160));
            default -> "'a" + random.nextInt(6) + "'";
          });
    }
    String value =
        switch (column) {
          case 0, 1 -> "s";
          case 2 -> "i";
          default -> random.nextBoolean() ? "m['k1']" : "m['k2']";
        };
    if (value.equals("m['k2']")) {
      items.replaceAll(item -> item.startsWith("'a") ? "'b" + item.substring(2) : item);
    }
    return value + not + " IN (" + String.join(", ", items) + ")";
  }

  private static String abbreviated(String sql) {
    return sql.length() <= 400 ? sql : sql.substring(0, 400) + "… (" + sql.length() + " chars)";
  }
}
