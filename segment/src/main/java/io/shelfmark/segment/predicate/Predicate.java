package io.shelfmark.segment.predicate;

import io.shelfmark.segment.spi.Value;
import java.util.List;

/**
 * A filter over one segment's docs, in the small model the indexes answer: comparisons of a column
 * with literals ({@link Eq}, {@link In}, {@link Range}), {@link IsNull}, and {@link Not}, {@link
 * And}, {@link Or} over them. The query engine builds these from SQL; columns are names as the
 * segment knows them, including extracted map keys such as {@code dimensions['node']}.
 *
 * <p>Semantics are SQL's three-valued logic: a comparison with a null value is unknown, {@code NOT
 * unknown} is unknown, and a doc matches only when the whole predicate is true. So {@code NOT (x =
 * 5)} does not match docs where x is null, while {@code x IS NULL} does. Literals are never null.
 * Value order and equality are those of {@link Value}.
 *
 * <p>Immutable values; factories below for brevity.
 */
public sealed interface Predicate permits ColumnPredicate, IsNull, Not, And, Or {

  static Eq eq(String column, Value value) {
    return new Eq(column, value);
  }

  static Eq eq(String column, long value) {
    return new Eq(column, Value.of(value));
  }

  static Eq eq(String column, String value) {
    return new Eq(column, Value.of(value));
  }

  static In in(String column, List<? extends Value> values) {
    return new In(column, List.copyOf(values));
  }

  /**
   * A predicate no doc matches, written over {@code column} ({@code column IS NULL AND column IS
   * NOT NULL}): what a filter term that is never TRUE, such as {@code x NOT IN (1, NULL)},
   * translates to. Its negation matches every doc, so use it only where no NOT is applied above it
   * (a normalised filter's terms).
   */
  static Predicate none(String column) {
    return new And(List.of(new IsNull(column), new Not(new IsNull(column))));
  }

  static IsNull isNull(String column) {
    return new IsNull(column);
  }

  static Not not(Predicate operand) {
    return new Not(operand);
  }

  static And and(Predicate... operands) {
    return new And(List.of(operands));
  }

  static Or or(Predicate... operands) {
    return new Or(List.of(operands));
  }
}
