package io.shelfmark.sql;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A place in the SQL text, 1-based like every editor: the first character of a query is at line 1,
 * column 1. Columns count UTF-16 characters (a tab is one column).
 */
public record SqlPosition(int line, int column) {
  public SqlPosition {
    checkArgument(line >= 1, "line must be at least 1: %s", line);
    checkArgument(column >= 1, "column must be at least 1: %s", column);
  }

  /** As it appears in messages: {@code line 2, column 7}. */
  @Override
  public String toString() {
    return "line " + line + ", column " + column;
  }
}
