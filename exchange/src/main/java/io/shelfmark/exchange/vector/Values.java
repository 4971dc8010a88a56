package io.shelfmark.exchange.vector;

import io.shelfmark.sql.expression.ValueOrder;
import java.math.BigDecimal;
import java.util.Arrays;

/** Conversions and comparisons of boxed SQL values (the representation {@code SqlType} names). */
public final class Values {
  private Values() {}

  /** A BOOLEAN, INT, LONG, DATE or timestamp value as the long a {@link Vector} holds. */
  public static long toLong(Object value) {
    return switch (value) {
      case Boolean b -> b ? 1 : 0;
      case Integer i -> i;
      case Long l -> l;
      default ->
          throw new IllegalArgumentException(
              "Cannot hold " + value.getClass().getSimpleName() + " " + value + " as a long");
    };
  }

  /**
   * Compares two non-null values of one SQL type: numbers by value (NaN greatest and equal to
   * itself, -0.0 = 0.0), strings by code point, binary by unsigned bytes, FALSE before TRUE.
   */
  public static int compare(Object left, Object right) {
    if (left instanceof byte[] a && right instanceof byte[] b) {
      return Arrays.compareUnsigned(a, b);
    }
    if (left instanceof java.nio.ByteBuffer a && right instanceof java.nio.ByteBuffer b) {
      return Arrays.compareUnsigned(bytes(a), bytes(b));
    }
    if (left instanceof BigDecimal a && right instanceof BigDecimal b) {
      return a.compareTo(b);
    }
    return ValueOrder.compare(left, right);
  }

  /** Whether two non-null values of one type are equal in SQL (binary by content, NaN = NaN). */
  public static boolean equal(Object left, Object right) {
    return compare(left, right) == 0;
  }

  /** The remaining bytes of a buffer, as a new array. */
  public static byte[] bytes(java.nio.ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
