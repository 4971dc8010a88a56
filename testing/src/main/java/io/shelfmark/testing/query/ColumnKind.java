package io.shelfmark.testing.query;

/** The kinds of column {@link RandomQueryGenerator} writes predicates and aggregates for. */
public enum ColumnKind {
  LONG,
  INT,
  DOUBLE,
  STRING,
  BOOLEAN,
  DATE,
  /** A timestamp without time zone (Iceberg {@code timestamp}, DuckDB {@code TIMESTAMP}). */
  TIMESTAMP,
  /** {@code MAP<STRING, STRING>}, queried through its known keys as {@code col['key']}. */
  MAP;

  /** True for the kinds SUM, AVG, MIN and MAX apply to. */
  public boolean numeric() {
    return this == LONG || this == INT || this == DOUBLE;
  }

  /** True for the kinds whose values have an order (ranges, BETWEEN). */
  public boolean ordered() {
    return this != BOOLEAN && this != MAP;
  }
}
