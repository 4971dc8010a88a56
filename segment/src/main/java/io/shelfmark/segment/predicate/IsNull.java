package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

/** {@code column IS NULL}; {@code NOT (column IS NULL)} is {@code IS NOT NULL}. */
public record IsNull(String column) implements Predicate {
  public IsNull {
    requireNonNull(column, "column is null");
  }

  @Override
  public String toString() {
    return column + " IS NULL";
  }
}
