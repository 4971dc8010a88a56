package io.shelfmark.sql.plan;

/** ORDER BY direction. */
public enum SortDirection {
  ASC,
  DESC
}
