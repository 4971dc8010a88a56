package io.shelfmark.segment.predicate;

import io.shelfmark.segment.spi.ValueType;

/**
 * A comparison of one column with non-null literals: what index readers answer. Never true for a
 * doc whose value is null.
 */
public sealed interface ColumnPredicate extends Predicate permits Eq, In, Range {
  /** The column compared. */
  String column();

  /** The type of the literals. */
  ValueType valueType();
}
