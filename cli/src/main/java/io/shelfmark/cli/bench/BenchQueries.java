package io.shelfmark.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The four queries of BENCHMARK.md. The Shelfmark text is the published one; the DuckDB text
 * differs only where the dialects do: {@code dateTrunc('second', ts)} on epoch millis becomes
 * {@code (ts // 1000) * 1000}. Map access and the string literal compared to the BIGINT {@code
 * org_id} read the same in both.
 *
 * <p>Needed columns (the lower bound's rule, see docs/performance.md): a column counts when the
 * query needs its values for matching rows and the table's segments cannot give them. With the
 * bundled table config ({@code obs-metrics.table.yaml}) the segment holds sorted/inverted indexes
 * on the filter columns (a sorted index also gives each doc's value) and forward indexes on the
 * extracted map keys {@code node} and {@code service}, so:
 *
 * <ul>
 *   <li>Q1 needs nothing: COUNT(*) of an index-only filter.
 *   <li>Q2 needs {@code sum_rollup}.
 *   <li>Q3 needs {@code latest_rollup}: the generator writes each file sorted on the timestamp, so
 *       its segment holds a sorted index on it, which answers the range and gives each doc's
 *       timestamp for the per-second bucket (a file not sorted on it would need the timestamp's
 *       pages too, and its bytes / bound ratio would show it).
 *   <li>Q4 needs {@code sum_rollup}: {@code dimensions['service']} has a forward index.
 * </ul>
 */
public final class BenchQueries {
  private static final String HOUR =
      "logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000";
  private static final String SIX_MINUTES =
      "logical_timestamp >= 1754229600000 - 360000 AND logical_timestamp <= 1754229600000";
  private static final String TK_CACHE_NUMERIC =
      "metric = 'tk_cache' AND org_id = 184833768 AND resolution = 15000";
  private static final String TK_CACHE_STRING =
      "metric = 'tk_cache' AND org_id = '184833768' AND resolution = 15000";

  public static final BenchQuery Q1 =
      new BenchQuery(
          "Q1",
          "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 AND " + HOUR,
          "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 AND " + HOUR,
          "resolution = 15000 AND " + HOUR,
          List.of(),
          List.of("resolution", "logical_timestamp"));

  public static final BenchQuery Q2 =
      new BenchQuery(
          "Q2",
          "SELECT SUM(sum_rollup) FROM obs.metrics WHERE " + TK_CACHE_NUMERIC + " AND " + HOUR,
          "SELECT SUM(sum_rollup) FROM obs.metrics WHERE " + TK_CACHE_NUMERIC + " AND " + HOUR,
          TK_CACHE_NUMERIC + " AND " + HOUR,
          List.of("sum_rollup"),
          List.of("metric", "org_id", "resolution", "logical_timestamp", "sum_rollup"));

  public static final BenchQuery Q3 =
      new BenchQuery(
          "Q3",
          "SELECT dateTrunc('second', logical_timestamp) AS time_bucket, AVG(latest_rollup)"
              + " FROM obs.metrics WHERE "
              + TK_CACHE_STRING
              + " AND "
              + HOUR
              + " GROUP BY dateTrunc('second', logical_timestamp) ORDER BY time_bucket",
          "SELECT (logical_timestamp // 1000) * 1000 AS time_bucket, AVG(latest_rollup)"
              + " FROM obs.metrics WHERE "
              + TK_CACHE_STRING
              + " AND "
              + HOUR
              + " GROUP BY (logical_timestamp // 1000) * 1000 ORDER BY time_bucket",
          TK_CACHE_STRING + " AND " + HOUR,
          List.of("latest_rollup"),
          List.of("metric", "org_id", "resolution", "logical_timestamp", "latest_rollup"));

  public static final BenchQuery Q4 =
      new BenchQuery(
          "Q4",
          "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value"
              + " FROM obs.metrics WHERE "
              + TK_CACHE_STRING
              + " AND dimensions['node'] = 'xyz' AND "
              + SIX_MINUTES
              + " GROUP BY dimensions['service'] ORDER BY total_value DESC",
          "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value"
              + " FROM obs.metrics WHERE "
              + TK_CACHE_STRING
              + " AND dimensions['node'] = 'xyz' AND "
              + SIX_MINUTES
              + " GROUP BY dimensions['service'] ORDER BY total_value DESC",
          TK_CACHE_STRING + " AND dimensions['node'] = 'xyz' AND " + SIX_MINUTES,
          List.of("sum_rollup"),
          List.of(
              "metric", "org_id", "resolution", "logical_timestamp", "dimensions", "sum_rollup"));

  /** Q1 … Q4 in order. */
  public static final List<BenchQuery> ALL = List.of(Q1, Q2, Q3, Q4);

  /** The suffix of a query's variant answered from rows only: {@code Q2-rows}. */
  public static final String ROWS_SUFFIX = "-rows";

  /**
   * Q2 and Q3 with star-trees off ({@code OPTION(useStarTree=false)}): the same query answered from
   * the rows, so a run reports each with and without the bundled config's star-tree.
   */
  public static final List<BenchQuery> ROWS_ONLY = List.of(rowsOnly(Q2), rowsOnly(Q3));

  private static BenchQuery rowsOnly(BenchQuery query) {
    return new BenchQuery(
        query.name() + ROWS_SUFFIX,
        query.sql() + " OPTION(useStarTree=false)",
        query.duckDbSql(),
        query.duckDbWhere(),
        query.neededColumns(),
        query.scanColumns());
  }

  private BenchQueries() {}

  /**
   * The queries named in {@code names} ({@code Q1} … {@code Q4}, {@code Q2-rows}, {@code Q3-rows},
   * the {@link IndexOnlyQueries}, any case), in benchmark order.
   *
   * @throws IllegalArgumentException naming an unknown query
   */
  public static List<BenchQuery> select(List<String> names) {
    List<String> wanted = new ArrayList<>();
    for (String name : names) {
      String upper = name.trim().toUpperCase(Locale.ROOT);
      String wantedName =
          upper.endsWith(ROWS_SUFFIX.toUpperCase(Locale.ROOT))
              ? upper.substring(0, upper.length() - ROWS_SUFFIX.length()) + ROWS_SUFFIX
              : upper;
      if (known().noneMatch(q -> q.name().equals(wantedName))) {
        throw new IllegalArgumentException(
            "Cannot run benchmark query '"
                + name
                + "': unknown (use Q1, Q2, Q3, Q4, Q2-rows, Q3-rows, GROUP-COUNT, COUNT-DISTINCT,"
                + " LIKE-PREFIX or MINMAX-GROUP)");
      }
      wanted.add(wantedName);
    }
    List<BenchQuery> selected = new ArrayList<>();
    for (BenchQuery query : known().toList()) {
      if (wanted.contains(query.name())) {
        selected.add(query);
      }
    }
    return List.copyOf(selected);
  }

  /** Every query a run can name, in benchmark order ({@link IndexOnlyQueries} last). */
  public static Stream<BenchQuery> known() {
    return Stream.of(ALL, ROWS_ONLY, IndexOnlyQueries.ALL).flatMap(List::stream);
  }

  /** The query named {@code name}. */
  public static BenchQuery byName(String name) {
    return select(List.of(name)).get(0);
  }
}
