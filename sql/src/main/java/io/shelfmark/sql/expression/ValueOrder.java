package io.shelfmark.sql.expression;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;

/**
 * The order of non-NULL values of one type (in the representation documented on {@code SqlType}),
 * as comparisons, MIN/MAX and ORDER BY use it:
 *
 * <ul>
 *   <li>numbers by value; for FLOAT and DOUBLE, -0.0 equals 0.0, and NaN equals NaN and is greater
 *       than every other value, including +Infinity (DuckDB's and PostgreSQL's total order);
 *   <li>strings by Unicode code point, which is also the order of their UTF-8 bytes (unlike {@link
 *       String#compareTo}, which compares UTF-16 units);
 *   <li>booleans FALSE before TRUE; dates and timestamps by their epoch number.
 * </ul>
 */
public final class ValueOrder {
  private ValueOrder() {}

  /**
   * Compares two values of the same SQL type.
   *
   * @throws IllegalArgumentException for values of different or unordered representations
   */
  public static int compare(Object left, Object right) {
    requireNonNull(left, "left is null");
    requireNonNull(right, "right is null");
    return switch (left) {
      case Integer a when right instanceof Integer b -> Integer.compare(a, b);
      case Long a when right instanceof Long b -> Long.compare(a, b);
      case BigDecimal a when right instanceof BigDecimal b -> a.compareTo(b);
      case Double a when right instanceof Double b -> compareFloating(a, b);
      case Float a when right instanceof Float b -> compareFloating(a, b);
      case String a when right instanceof String b -> compareCodePoints(a, b);
      case Boolean a when right instanceof Boolean b -> Boolean.compare(a, b);
      default ->
          throw new IllegalArgumentException(
              "Cannot compare "
                  + left.getClass().getSimpleName()
                  + " with "
                  + right.getClass().getSimpleName());
    };
  }

  /** Floating-point order with -0.0 = 0.0 and NaN = NaN greatest. */
  public static int compareFloating(double left, double right) {
    boolean leftNan = Double.isNaN(left);
    boolean rightNan = Double.isNaN(right);
    if (leftNan || rightNan) {
      return Boolean.compare(leftNan, rightNan);
    }
    return left < right ? -1 : (left == right ? 0 : 1);
  }

  /** Code-point order (= UTF-8 byte order). */
  public static int compareCodePoints(String left, String right) {
    int length = Math.min(left.length(), right.length());
    for (int i = 0; i < length; i++) {
      char a = left.charAt(i);
      char b = right.charAt(i);
      if (a != b) {
        // Surrogates (supplementary code points) sort after every BMP character in code-point
        // order, though they sit below U+E000..U+FFFF as UTF-16 units.
        boolean aSurrogate = Character.isSurrogate(a);
        boolean bSurrogate = Character.isSurrogate(b);
        if (aSurrogate != bSurrogate) {
          return aSurrogate ? 1 : -1;
        }
        return Character.compare(a, b);
      }
    }
    return Integer.compare(left.length(), right.length());
  }
}
