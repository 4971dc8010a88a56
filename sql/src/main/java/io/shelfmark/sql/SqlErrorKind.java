package io.shelfmark.sql;

/**
 * Why a query was refused. The broker maps {@link #SYNTAX}, {@link #UNRESOLVED}, {@link #INVALID}
 * and {@link #LIMIT} to Pinot's SQL error codes (150, 190 or 710 by what is unresolved, 700, 150)
 * and {@link #UNSUPPORTED} to its unsupported category: the first four are about the query itself,
 * the last is valid SQL that Shelfmark does not answer (yet).
 */
public enum SqlErrorKind {
  /** The text is not SQL: Calcite's parser failed. */
  SYNTAX,
  /** A table, column or function named in the query does not exist. */
  UNRESOLVED,
  /**
   * The query is well formed but wrong: a type mismatch, a literal that cannot be cast, a column
   * neither grouped nor aggregated, an aggregate in WHERE, an ordinal out of range.
   */
  INVALID,
  /** Valid SQL that Shelfmark refuses to answer: joins, subqueries, window functions, DML, DDL. */
  UNSUPPORTED,
  /**
   * The query is larger than a configured {@link SqlLimits limit} allows (too long, nested too
   * deeply, too many IN values or AND/OR terms); the message names the limit's config key.
   */
  LIMIT
}
