package io.shelfmark.cli.bench;

import java.util.List;

/**
 * MIN/MAX answered from Parquet page statistics (issue 25), by name with {@code --queries
 * MINMAX-PAGES,MINMAX-PAGES-rows}; not in the default set. {@code MINMAX-PAGES} takes the least
 * {@code sum_rollup} and {@code latest_rollup} of one org (columns no index of the bundled config
 * holds, and MIN is none of its star-tree's functions): the org's files match whole, so every page
 * of both columns gives its ColumnIndex minimum and none is read (lower bound 0). {@code
 * MINMAX-PAGES-rows} is the same query with {@code OPTION(usePageStatistics=false)}: the pages read
 * and decoded, as before. DuckDB runs the query without the option.
 */
public final class PageStatisticsQueries {
  private static final String WHERE = "org_id = 184833768";
  private static final String SQL =
      "SELECT MIN(sum_rollup) AS low_sum, MIN(latest_rollup) AS low_latest, COUNT(*) AS n"
          + " FROM obs.metrics WHERE "
          + WHERE;
  private static final List<String> SCAN = List.of("org_id", "sum_rollup", "latest_rollup");

  public static final BenchQuery MINMAX_PAGES =
      new BenchQuery("MINMAX-PAGES", SQL, SQL, WHERE, List.of(), SCAN);

  public static final BenchQuery MINMAX_PAGES_ROWS =
      new BenchQuery(
          "MINMAX-PAGES" + BenchQueries.ROWS_SUFFIX,
          SQL + " OPTION(usePageStatistics=false)",
          SQL,
          WHERE,
          List.of(),
          SCAN);

  /** Both, in this order. */
  public static final List<BenchQuery> ALL = List.of(MINMAX_PAGES, MINMAX_PAGES_ROWS);

  private PageStatisticsQueries() {}
}
