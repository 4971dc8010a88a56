package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.server.exec.TestingLakeTables.TableFile;
import io.shelfmark.server.exec.TestingLakeTables.TestingTable;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Star-tree answers against DuckDB and against the row path (star-trees off) over the same files.
 *
 * <p>{@code test.types} with a star-tree over a string with NULLs and an empty string, a boolean,
 * an int, a map key missing from some rows ({@code m['k2']}), an hourly bucket of a timestamp and a
 * date: its first file answers from the tree, its second has the tree but deletes (which the tree
 * does not know: the row path must answer it), its third has no segment. A second engine has the
 * first file's segment built before the star-tree was configured (no tree: rows answer). Random
 * filters (equality, IN, NOT IN, ranges, IS NULL on dimensions; timestamp ranges aligned to the
 * hour and cutting hours; terms on other columns; ORs) and shapes, seeded ({@code
 * -Dshelfmark.test.seed=N}). A third engine's tree ({@code s}, then the hour of {@code ts}) rolls
 * up the hours of each {@code s} value whose records hold fewer than 2 rows each ({@code
 * min-rows-per-record}; all but NULL, whose hours hold about 2.2 rows): a query filtering or
 * grouping by the hour there is answered from the rows, the others (and NULL's) from the tree.
 *
 * <p>{@code obs.metrics} with the benchmark's star-tree: Q2- and Q3-shaped queries are answered by
 * the tree in the files without deletes, reading no Parquet byte there.
 */
class TestStarTreeAnswers {
  private static final Logger log = LoggerFactory.getLogger(TestStarTreeAnswers.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 300);

  private static final String TYPES_CONFIG =
      """
      table: {catalog: lake, namespace: test, name: types}
      columns:
        id: {indexes: [range]}
        i: {indexes: [inverted, forward]}
        l: {indexes: [range]}
        d: {indexes: [range]}
        f: {indexes: [range]}
        s: {indexes: [inverted]}
        b: {indexes: [inverted]}
        dt: {indexes: [range, forward]}
        ts: {indexes: [range]}
      map-keys:
        m: {keys: [k1, k2]}
      """;

  private static final String TYPES_STAR_TREE =
      """
      star-trees:
        - dimensions: [s, b, i, "m['k2']", "dateTrunc('hour', ts)", dt]
          functions: ["COUNT(*)", "SUM(l)", "AVG(d)", "MIN(f)", "MAX(i)", "SUM(i)", "COUNT(d)",
              "DISTINCTCOUNTHLL(l)", "DISTINCTCOUNTHLL(s)", "DISTINCTCOUNTHLL(d)",
              "DISTINCTCOUNTHLL(f)"]
          max-leaf-records: 40
          skip-star-node-dimensions: [b]
      """;

  private static final String ROLLED_UP_STAR_TREE =
      """
      star-trees:
        - dimensions: [s, "dateTrunc('hour', ts)"]
          functions: ["COUNT(*)", "SUM(l)", "AVG(d)", "MIN(f)", "MAX(i)", "SUM(i)", "COUNT(d)",
              "DISTINCTCOUNTHLL(l)", "DISTINCTCOUNTHLL(s)"]
          max-leaf-records: 40
          min-rows-per-record: 2
      """;

  private static final List<String> FILTERS =
      List.of(
          "s = 'v1'",
          "s IN ('v1', 'v2_x', '', 'absent')",
          "s NOT IN ('v1', 'v3_x')",
          "s IS NULL",
          "s <> 'v4'",
          "s >= 'v2'",
          "b = true",
          "b IS NOT NULL",
          "i > 20",
          "i BETWEEN -10 AND 40",
          "i IN (1, 2, 3, 50)",
          "m['k2'] = 'b1'",
          "m['k2'] IS NULL",
          "m['k2'] IN ('b0', 'b2')",
          "dt >= DATE '2024-12-25'",
          "dt = DATE '2025-01-03'",
          "ts >= TIMESTAMP '2025-01-01 10:00:00' AND ts < TIMESTAMP '2025-01-02 05:00:00'",
          "ts BETWEEN TIMESTAMP '2025-01-01 10:17:00' AND TIMESTAMP '2025-01-02 05:00:00'",
          "ts > TIMESTAMP '2025-01-01 20:00:00'",
          "ts <= TIMESTAMP '2025-01-02 13:30:00'",
          "ts < TIMESTAMP '2025-01-01 00:30:00'",
          "l > 0",
          "d > 100.5");

  private static final List<String> SHAPES =
      List.of(
          "SELECT COUNT(*) FROM test.types%s",
          "SELECT SUM(l), AVG(d), COUNT(*), COUNT(d) FROM test.types%s",
          "SELECT s, COUNT(*), SUM(l) FROM test.types%s GROUP BY s",
          "SELECT b, i, AVG(d), MIN(f), MAX(i) FROM test.types%s GROUP BY b, i",
          "SELECT m['k2'], COUNT(d), SUM(i) FROM test.types%s GROUP BY m['k2']",
          "SELECT date_trunc('hour', ts), COUNT(*), SUM(l) FROM test.types%s"
              + " GROUP BY date_trunc('hour', ts)",
          "SELECT dt, s, MIN(f), MAX(i) FROM test.types%s GROUP BY dt, s",
          "SELECT s, COUNT(DISTINCT i) FROM test.types%s GROUP BY s",
          "SELECT b, SUM(d) FROM test.types%s GROUP BY b",
          // DISTINCTCOUNTHLL: of tree sketch columns (l, s, d, f), and of i, which no tree keeps.
          "SELECT DISTINCTCOUNTHLL(l), COUNT(*) FROM test.types%s",
          "SELECT s, DISTINCTCOUNTHLL(l), DISTINCTCOUNTHLL(d) FROM test.types%s GROUP BY s",
          "SELECT date_trunc('hour', ts), DISTINCTCOUNTHLL(s), SUM(l) FROM test.types%s"
              + " GROUP BY date_trunc('hour', ts)",
          "SELECT m['k2'], b, DISTINCTCOUNTHLL(l), DISTINCTCOUNTHLL(f) FROM test.types%s"
              + " GROUP BY m['k2'], b",
          "SELECT DISTINCTCOUNTHLL(l), DISTINCTCOUNTHLL(i) FROM test.types%s");

  /**
   * DISTINCTCOUNTHLL against DuckDB's exact COUNT(DISTINCT): within three standard errors of the
   * sketch (lgK 12: 1.04 / sqrt(4096) each).
   */
  private static final double HLL_BOUND = 3 * 1.04 / 64;

  @Test
  void starTreeAnswersEqualDuckDbAndTheRowPath() throws IOException {
    log.info("Star-tree answers: seed {} (rerun with -Dshelfmark.test.seed={})", SEED, SEED);
    TestingLakeTables lake = TestingLakeTables.shared();
    TestingSegments withTree =
        new TestingSegments(
            lake.store,
            lake.io,
            Files.createTempDirectory(lake.directory, "types-star-tree"),
            TYPES_CONFIG + TYPES_STAR_TREE,
            TestingLakeTables.TYPES_SCHEMA);
    TestingSegments before =
        new TestingSegments(
            lake.store,
            lake.io,
            Files.createTempDirectory(lake.directory, "types-before"),
            TYPES_CONFIG,
            TestingLakeTables.TYPES_SCHEMA);
    TestingSegments rolledUp =
        new TestingSegments(
            lake.store,
            lake.io,
            Files.createTempDirectory(lake.directory, "types-rolled-up"),
            TYPES_CONFIG + ROLLED_UP_STAR_TREE,
            TestingLakeTables.TYPES_SCHEMA);
    // The same tree without rolled-up records: what it answers and the rolled-up one does not is
    // what the rolled-up records left to the rows.
    TestingSegments unrolled =
        new TestingSegments(
            lake.store,
            lake.io,
            Files.createTempDirectory(lake.directory, "types-unrolled"),
            TYPES_CONFIG + ROLLED_UP_STAR_TREE.replace("    min-rows-per-record: 2\n", ""),
            TestingLakeTables.TYPES_SCHEMA);
    List<TableFile> treeFiles = new ArrayList<>();
    List<TableFile> mixedFiles = new ArrayList<>();
    List<TableFile> rolledFiles = new ArrayList<>();
    List<TableFile> unrolledFiles = new ArrayList<>();
    for (TableFile file : lake.types.files()) {
      byte[] tree = file.segment() == null ? null : withTree.build(file.info());
      treeFiles.add(new TableFile(file.info(), file.local(), tree, file.deleted()));
      byte[] rolled = file.segment() == null ? null : rolledUp.build(file.info());
      rolledFiles.add(new TableFile(file.info(), file.local(), rolled, file.deleted()));
      byte[] whole = file.segment() == null ? null : unrolled.build(file.info());
      unrolledFiles.add(new TableFile(file.info(), file.local(), whole, file.deleted()));
      byte[] old =
          file == lake.types.files().get(0) && tree != null ? before.build(file.info()) : tree;
      mixedFiles.add(new TableFile(file.info(), file.local(), old, file.deleted()));
    }
    TestingTable trees = withFiles(lake.types, treeFiles);
    TestingTable mixed = withFiles(lake.types, mixedFiles);
    TestingTable rolled = withFiles(lake.types, rolledFiles);
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> failures = new ArrayList<>();
    long treeFilesAnswered = 0;
    long rolledFilesAnswered = 0;
    long leftToRowsByRollUp = 0;
    long hllQueries = 0;
    long hllFromTree = 0;
    try (TestingEngine pinned = new TestingEngine(lake, trees, Mode.PINNED);
        TestingEngine remote = new TestingEngine(lake, trees, Mode.REMOTE);
        TestingEngine off = new TestingEngine(lake, trees, Mode.PINNED).useStarTrees(false);
        TestingEngine old = new TestingEngine(lake, mixed, Mode.PINNED);
        TestingEngine rolledUpEngine = new TestingEngine(lake, rolled, Mode.PINNED);
        TestingEngine unrolledEngine =
            new TestingEngine(lake, withFiles(lake.types, unrolledFiles), Mode.PINNED)) {
      Map<String, TestingEngine> engines =
          Map.of(
              "pinned",
              pinned,
              "remote",
              remote,
              "off",
              off,
              "before-config",
              old,
              "rolled-up",
              rolledUpEngine);
      for (int q = 0; q < QUERIES; q++) {
        String sql = SHAPES.get(random.nextInt(SHAPES.size())).formatted(where(random));
        QueryResult expected =
            lake.oracle.query(sql.replace("DISTINCTCOUNTHLL(", "COUNT(DISTINCT "));
        Map<Integer, Double> approximate = hllColumns(sql);
        // The row path's answer: every plan of the same rows gives the same sketch estimate.
        QueryResult rowPath = approximate.isEmpty() ? null : off.query(sql);
        for (Map.Entry<String, TestingEngine> engine : engines.entrySet()) {
          Optional<String> difference;
          try {
            QueryResult actual = engine.getValue().query(sql);
            difference = ResultComparison.difference(expected, actual, false, 1e-9, approximate);
            if (difference.isEmpty() && rowPath != null) {
              difference =
                  ResultComparison.difference(rowPath, actual, false, 1e-9, Map.of())
                      .map(d -> "differs from the row path: " + d);
              if (engine.getKey().equals("pinned")) {
                hllQueries++;
                hllFromTree +=
                    engine.getValue().partial(sql).statistics().filesAnsweredFromStarTree();
              }
            }
            ExecutionStatistics statistics = engine.getValue().partial(sql).statistics();
            if (engine.getKey().equals("pinned")) {
              treeFilesAnswered += statistics.filesAnsweredFromStarTree();
            }
            if (engine.getKey().equals("rolled-up")) {
              long fromRolled = statistics.filesAnsweredFromStarTree();
              rolledFilesAnswered += fromRolled;
              long fromWhole = unrolledEngine.partial(sql).statistics().filesAnsweredFromStarTree();
              assertThat(fromRolled).as(sql).isLessThanOrEqualTo(fromWhole);
              leftToRowsByRollUp += fromWhole - fromRolled;
            }
            if (!engine.getKey().equals("pinned")
                && !engine.getKey().equals("remote")
                && !engine.getKey().equals("rolled-up")) {
              assertThat(statistics.filesAnsweredFromStarTree()).as(sql).isZero();
            }
            // The second file's deletes keep the tree away from it; at most the first answers.
            assertThat(statistics.filesAnsweredFromStarTree()).as(sql).isLessThanOrEqualTo(1);
          } catch (RuntimeException | AssertionError e) {
            difference = Optional.of("failed: " + e);
          }
          if (difference.isPresent() && failures.size() < 10) {
            failures.add("[" + engine.getKey() + " #" + q + "] " + sql + "\n" + difference.get());
          }
        }
      }
    }
    assertThat(failures).as("seed %d", SEED).isEmpty();
    log.info(
        "DISTINCTCOUNTHLL: {} queries, {} of their first files from the tree",
        hllQueries,
        hllFromTree);
    assertThat(hllFromTree).as("DISTINCTCOUNTHLL queries answered from the tree").isPositive();
    log.info(
        "Star-tree answers: {} of {} queries' first file from the tree",
        treeFilesAnswered,
        QUERIES);
    assertThat(treeFilesAnswered)
        .as("files answered from the star-tree")
        .isGreaterThan(QUERIES / 10);
    log.info(
        "Rolled-up tree: {} files from the tree, {} left to the rows by rolled-up records",
        rolledFilesAnswered,
        leftToRowsByRollUp);
    // Both outcomes must occur, or the rolled-up engine tested nothing of its own.
    assertThat(rolledFilesAnswered).as("files answered from the rolled-up tree").isPositive();
    assertThat(leftToRowsByRollUp).as("files the rolled-up records left to the rows").isPositive();
  }

  @Test
  void dashboardQueriesAreAnsweredByTheStarTreeWithoutParquetBytes() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    TestingSegments withTree =
        new TestingSegments(
            lake.store,
            lake.io,
            Files.createTempDirectory(lake.directory, "metrics-star-tree"),
            """
            table: {catalog: lake, namespace: obs, name: metrics}
            time-column: logical_timestamp
            columns:
              metric: {indexes: [inverted, forward]}
              org_id: {indexes: [inverted, forward]}
              resolution: {indexes: [inverted, forward]}
              logical_timestamp: {indexes: [range]}
            map-keys:
              dimensions: {keys: [node, service]}
            star-trees:
              - dimensions: [metric, org_id, resolution, "dateTrunc('second', logical_timestamp)"]
                functions: ["COUNT(*)", "SUM(sum_rollup)", "AVG(latest_rollup)"]
            """,
            MetricsTable.SCHEMA);
    List<TableFile> files = new ArrayList<>();
    for (TableFile file : lake.metrics.files()) {
      byte[] tree = file.segment() == null ? null : withTree.build(file.info());
      files.add(new TableFile(file.info(), file.local(), tree, file.deleted()));
    }
    TestingTable table = withFiles(lake.metrics, files);
    // The benchmark's hour a day earlier: the test lake's file of that day (the largest org's
    // first) has a segment and no deletes; the benchmark's own day has deletes here.
    String hour =
        "logical_timestamp >= 1754143200000 - 3600000 AND logical_timestamp <= 1754143200000";
    String q2 =
        "SELECT SUM(sum_rollup) FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768"
            + " AND resolution = 15000 AND "
            + hour;
    String q3 =
        "SELECT dateTrunc('second', logical_timestamp) AS time_bucket, AVG(latest_rollup) FROM"
            + " obs.metrics WHERE metric = 'tk_cache' AND org_id = '184833768' AND resolution ="
            + " 15000 AND "
            + hour
            + " GROUP BY dateTrunc('second', logical_timestamp) ORDER BY time_bucket";
    String q3DuckDb =
        "SELECT (logical_timestamp // 1000) * 1000 AS time_bucket, AVG(latest_rollup) FROM"
            + " obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768 AND resolution ="
            + " 15000 AND "
            + hour
            + " GROUP BY (logical_timestamp // 1000) * 1000 ORDER BY time_bucket";
    // The files the tree may answer: segmented, without deletes.
    List<Integer> treeFiles = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      if (files.get(f).segment() != null && files.get(f).deleted().isEmpty()) {
        treeFiles.add(f);
      }
    }
    assertThat(treeFiles).isNotEmpty();
    try (TestingEngine engine = new TestingEngine(lake, table, Mode.PINNED);
        TestingEngine off = new TestingEngine(lake, table, Mode.PINNED).useStarTrees(false)) {
      ResultComparison.assertEquivalent(lake.oracle.query(q2), engine.query(q2), false, 1e-9);
      ResultComparison.assertEquivalent(lake.oracle.query(q3DuckDb), engine.query(q3), true, 1e-9);
      ResultComparison.assertEquivalent(off.query(q3), engine.query(q3), true, 1e-9);
      for (String sql : List.of(q2, q3)) {
        ExecutionStatistics all = engine.partial(sql).statistics();
        assertThat(all.filesAnsweredFromStarTree()).as(sql).isEqualTo(treeFiles.size());
        assertThat(off.partial(sql).statistics().filesAnsweredFromStarTree()).as(sql).isZero();
        List<FileTask> tasks = new ArrayList<>();
        treeFiles.forEach(f -> tasks.add(engine.tasks().get(f)));
        ExecutionStatistics fromTree = engine.partial(sql, tasks).statistics();
        assertThat(fromTree.filesAnsweredFromStarTree()).as(sql).isEqualTo(treeFiles.size());
        assertThat(fromTree.parquetBytesRead()).as(sql).isZero();
        assertThat(fromTree.filesAnsweredFromSegment()).as(sql).isEqualTo(treeFiles.size());
        ExecutionStatistics rows = off.partial(sql, tasks).statistics();
        assertThat(fromTree.docsScanned()).as(sql).isEqualTo(rows.docsScanned()).isPositive();
        assertThat(rows.parquetBytesRead()).as(sql).isPositive();
      }
      // Q1's shape: a COUNT(*) whose filter the indexes resolve is the bitmap's cardinality,
      // cheaper
      // than visiting the tree's records; the tree answers a count only for an inexact filter.
      String q1 = "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 AND " + hour;
      ResultComparison.assertEquivalent(lake.oracle.query(q1), engine.query(q1), false, 1e-9);
      List<FileTask> tasks = new ArrayList<>();
      treeFiles.forEach(f -> tasks.add(engine.tasks().get(f)));
      ExecutionStatistics count = engine.partial(q1, tasks).statistics();
      assertThat(count.filesAnsweredFromStarTree()).isZero();
      assertThat(count.filesAnsweredFromSegment()).isEqualTo(treeFiles.size());
      String inexact =
          "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 AND "
              + hour
              + " AND sum_rollup >= 0";
      ResultComparison.assertEquivalent(
          lake.oracle.query(inexact), engine.query(inexact), false, 1e-9);
    }
  }

  /** The output columns of DISTINCTCOUNTHLL calls, with the sketch's error bound. */
  private static Map<Integer, Double> hllColumns(String sql) {
    String list = sql.substring("SELECT ".length(), sql.indexOf(" FROM "));
    Map<Integer, Double> columns = new java.util.HashMap<>();
    int depth = 0;
    int column = 0;
    int start = 0;
    for (int i = 0; i <= list.length(); i++) {
      char c = i < list.length() ? list.charAt(i) : ',';
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        if (list.substring(start, i).strip().startsWith("DISTINCTCOUNTHLL(")) {
          columns.put(column, HLL_BOUND);
        }
        column++;
        start = i + 1;
      }
    }
    return columns;
  }

  private static TestingTable withFiles(TestingTable table, List<TableFile> files) {
    return new TestingTable(table.name(), table.schema(), table.bound(), files);
  }

  private static String where(SplittableRandom random) {
    int terms = random.nextInt(4);
    if (terms == 0) {
      return "";
    }
    List<String> chosen = new ArrayList<>();
    for (int t = 0; t < terms; t++) {
      chosen.add("(" + FILTERS.get(random.nextInt(FILTERS.size())) + ")");
    }
    String joiner = random.nextInt(6) == 0 ? " OR " : " AND ";
    return " WHERE " + String.join(joiner, chosen);
  }
}
