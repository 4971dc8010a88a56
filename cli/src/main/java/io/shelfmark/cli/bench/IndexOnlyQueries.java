package io.shelfmark.cli.bench;

import java.util.List;

/**
 * Four query shapes off the benchmark's beaten path that issue 25 measured on a pyarrow-written
 * table (each read 4–187 MB there and was no faster than the scan engine), which the segments
 * answer alone: none needs a Parquet page (lower bound 0). Not in the default query set; run them
 * with {@code --queries GROUP-COUNT,COUNT-DISTINCT,LIKE-PREFIX,MINMAX-GROUP}. Each filters on
 * {@code dimensions['node']}, which no star-tree of the bundled config holds, so the index path
 * answers them (the star-tree would answer the first one otherwise).
 *
 * <ul>
 *   <li>{@code GROUP-COUNT}: GROUP BY an inverted-indexed column with COUNT(*) under indexed
 *       filters (ids read back from the posting lists).
 *   <li>{@code COUNT-DISTINCT}: COUNT(DISTINCT) of an inverted-indexed column.
 *   <li>{@code LIKE-PREFIX}: {@code LIKE 'prefix%'} on an inverted-indexed column, a dictionary id
 *       range.
 *   <li>{@code MINMAX-GROUP}: MIN/MAX of the timestamp (the file's sorted index) grouped by an
 *       inverted-indexed column.
 * </ul>
 */
public final class IndexOnlyQueries {
  private static final String ORG_NODE = "org_id = 184833768 AND dimensions['node'] = 'xyz'";
  private static final List<String> SCAN =
      List.of("metric", "org_id", "dimensions", "logical_timestamp");

  public static final BenchQuery GROUP_COUNT =
      same(
          "GROUP-COUNT",
          "SELECT metric, COUNT(*) AS n FROM obs.metrics WHERE "
              + ORG_NODE
              + " GROUP BY metric ORDER BY metric",
          ORG_NODE);

  public static final BenchQuery COUNT_DISTINCT =
      same(
          "COUNT-DISTINCT",
          "SELECT COUNT(DISTINCT metric) FROM obs.metrics WHERE " + ORG_NODE,
          ORG_NODE);

  public static final BenchQuery LIKE_PREFIX =
      same(
          "LIKE-PREFIX",
          "SELECT COUNT(*) FROM obs.metrics WHERE metric LIKE 'tk%' AND " + ORG_NODE,
          "metric LIKE 'tk%' AND " + ORG_NODE);

  public static final BenchQuery MINMAX_GROUP =
      same(
          "MINMAX-GROUP",
          "SELECT metric, MIN(logical_timestamp) AS first_seen, MAX(logical_timestamp) AS last_seen"
              + " FROM obs.metrics WHERE "
              + ORG_NODE
              + " GROUP BY metric ORDER BY metric",
          ORG_NODE);

  /** The four, in this order. */
  public static final List<BenchQuery> ALL =
      List.of(GROUP_COUNT, COUNT_DISTINCT, LIKE_PREFIX, MINMAX_GROUP);

  private IndexOnlyQueries() {}

  /** A query whose text DuckDB reads as Shelfmark does; no column is needed from Parquet. */
  private static BenchQuery same(String name, String sql, String where) {
    return new BenchQuery(name, sql, sql, where, List.of(), SCAN);
  }
}
