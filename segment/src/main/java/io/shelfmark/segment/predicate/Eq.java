package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;

/** {@code column = value}. */
public record Eq(String column, Value value) implements ColumnPredicate {
  public Eq {
    requireNonNull(column, "column is null");
    requireNonNull(value, "value is null");
  }

  @Override
  public ValueType valueType() {
    return value.type();
  }

  @Override
  public String toString() {
    return column + " = " + value;
  }
}
