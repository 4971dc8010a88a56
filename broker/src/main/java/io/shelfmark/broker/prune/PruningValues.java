package io.shelfmark.broker.prune;

import io.shelfmark.segment.spi.Value;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Maps SQL literals and Iceberg bound values into the statistics value domains ({@link Value}):
 * integers, booleans (0/1), dates (days) and timestamps (micros) to LONG, FLOAT and DOUBLE to
 * DOUBLE, STRING to STRING. DECIMAL and BINARY have no domain here: predicates on them are not
 * pruned (missing statistics mean read).
 */
final class PruningValues {
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private PruningValues() {}

  /** The statistics value of a non-null literal; empty for NULL and for types without a domain. */
  static Optional<Value> of(Literal literal) {
    return literal.isNull() ? Optional.empty() : of(literal.value());
  }

  /** The statistics value of a SQL or Iceberg value, when its type has a domain. */
  static Optional<Value> of(Object value) {
    return switch (value) {
      case Boolean b -> Optional.of(Value.of(b ? 1L : 0L));
      case Integer i -> Optional.of(Value.of((long) i));
      case Long l -> Optional.of(Value.of(l));
      case Float f -> Optional.of(Value.of((double) f));
      case Double d -> Optional.of(Value.of(d));
      case String s -> Optional.of(Value.of(s));
      case CharSequence s -> Optional.of(Value.of(s.toString()));
      default -> Optional.empty();
    };
  }

  /**
   * How a statistic of a column maps through an implicit cast the binder inserted, when that cast
   * is monotone (never reverses the order of two values), so bounds stay bounds: INT to LONG (same
   * value), any integer or FLOAT to FLOAT/DOUBLE (nearest value), DATE to TIMESTAMP (midnight).
   * Empty for any other cast, which is then not pruned.
   */
  static Optional<UnaryOperator<Value>> cast(SqlType from, SqlType to) {
    if (!(from instanceof PrimitiveType source) || !(to instanceof PrimitiveType target)) {
      return Optional.empty();
    }
    if (source == PrimitiveType.INT && target == PrimitiveType.LONG) {
      return Optional.of(UnaryOperator.identity());
    }
    if ((source.isIntegral() || source == PrimitiveType.FLOAT) && target.isFloatingPoint()) {
      boolean toFloat = target == PrimitiveType.FLOAT;
      return Optional.of(value -> Value.of(toFloating(value, toFloat)));
    }
    if (source == PrimitiveType.DATE
        && (target == PrimitiveType.TIMESTAMP || target == PrimitiveType.TIMESTAMP_TZ)) {
      return Optional.of(value -> Value.of(midnight(((Value.LongValue) value).value())));
    }
    return Optional.empty();
  }

  private static double toFloating(Value value, boolean toFloat) {
    double result =
        switch (value) {
          case Value.LongValue(long v) -> (double) v;
          case Value.DoubleValue(double v) -> v;
          case Value.StringValue s ->
              throw new IllegalArgumentException(
                  "Cannot cast string statistic " + s + " to a number");
        };
    return toFloat ? (float) result : result;
  }

  // Saturating: a date beyond the timestamp range maps to the range's end, which keeps the order.
  private static long midnight(long days) {
    try {
      return Math.multiplyExact(days, MICROS_PER_DAY);
    } catch (ArithmeticException e) {
      return days < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
