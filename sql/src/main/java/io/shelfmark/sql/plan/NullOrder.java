package io.shelfmark.sql.plan;

/**
 * Where NULLs sort. When a query does not say, the planner picks {@link #LAST} for both directions,
 * as DuckDB does (Shelfmark's results are checked against DuckDB), so every {@code SortKey} in a
 * plan carries an explicit null order.
 */
public enum NullOrder {
  FIRST,
  LAST
}
