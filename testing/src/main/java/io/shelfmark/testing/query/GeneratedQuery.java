package io.shelfmark.testing.query;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One generated query in both dialects. The two texts differ only where the dialects do: Pinot's
 * {@code dateTrunc('unit', millis)} against DuckDB's {@code epoch_ms(date_trunc('unit',
 * make_timestamp(millis * 1000)))}, {@code DISTINCTCOUNTHLL(col)} against an exact {@code
 * COUNT(DISTINCT col)}, and the dashboards' time buckets (Pinot's {@code CAST(millis AS
 * TIMESTAMP)}, {@code DATETIMECONVERT} and {@code ROUND(time, width)}) against DuckDB's {@code
 * make_timestamp} and integer division.
 *
 * @param shelfmarkSql the query for Shelfmark (Pinot-compatible dialect)
 * @param duckDbSql the same query for DuckDB
 * @param ordered whether the result order is defined (a total ORDER BY over every output column);
 *     otherwise compare as multisets
 * @param constructs what the query uses
 * @param approximateColumns output column index → relative tolerance, for columns Shelfmark
 *     estimates (pass to {@code ResultComparison.assertEquivalent})
 */
public record GeneratedQuery(
    String shelfmarkSql,
    String duckDbSql,
    boolean ordered,
    Set<Construct> constructs,
    Map<Integer, Double> approximateColumns) {
  public GeneratedQuery {
    requireNonNull(shelfmarkSql, "shelfmarkSql is null");
    requireNonNull(duckDbSql, "duckDbSql is null");
    requireNonNull(constructs, "constructs is null");
    requireNonNull(approximateColumns, "approximateColumns is null");
    constructs =
        Collections.unmodifiableSet(
            constructs.isEmpty() ? EnumSet.noneOf(Construct.class) : EnumSet.copyOf(constructs));
    approximateColumns = Collections.unmodifiableMap(new TreeMap<>(approximateColumns));
  }

  /** True when Shelfmark's answer is an estimate in some column. */
  public boolean approximate() {
    return !approximateColumns.isEmpty();
  }

  @Override
  public String toString() {
    return shelfmarkSql.equals(duckDbSql)
        ? shelfmarkSql
        : shelfmarkSql + "\n  -- DuckDB: " + duckDbSql;
  }
}
