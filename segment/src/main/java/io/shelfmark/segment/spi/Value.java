package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;

/**
 * A non-null literal or statistic of one {@link ValueType}. SQL NULL is never a {@code Value}: it
 * is what {@code IsNull} tests and what statistics count.
 *
 * <p>Ordering and equality, which every index and the brute-force scan share:
 *
 * <ul>
 *   <li>LONG: signed order.
 *   <li>DOUBLE: {@link Double#compare} after turning -0.0 into 0.0, so -0.0 equals 0.0 and NaN
 *       equals NaN and sorts above +Infinity (as Iceberg, Spark and PostgreSQL order them).
 *   <li>STRING: unsigned lexicographic order of the UTF-8 bytes (code point order).
 * </ul>
 */
public sealed interface Value extends Comparable<Value>
    permits Value.LongValue, Value.DoubleValue, Value.StringValue {

  ValueType type();

  static LongValue of(long value) {
    return new LongValue(value);
  }

  static DoubleValue of(double value) {
    return new DoubleValue(value);
  }

  static StringValue of(String value) {
    return new StringValue(value);
  }

  /** Compares two values of the same type; different types are a programming error. */
  @Override
  default int compareTo(Value other) {
    return switch (this) {
      case LongValue(long a) when other instanceof LongValue(long b) -> Long.compare(a, b);
      case DoubleValue(double a) when other instanceof DoubleValue(double b) ->
          Double.compare(a, b);
      case StringValue(String a) when other instanceof StringValue(String b) ->
          compareCodePoints(a, b);
      default ->
          throw new IllegalArgumentException(
              "Cannot compare %s value %s with %s value %s"
                  .formatted(type(), this, other.type(), other));
    };
  }

  /**
   * Compares strings by code point, which is the unsigned order of their UTF-8 bytes, without
   * encoding them.
   */
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  /**
   * Maps a double to a long whose signed order is {@link Value} order for doubles: -0.0 becomes
   * 0.0, every NaN becomes the canonical NaN (above +Infinity). Used by indexes that store doubles
   * as longs.
   */
  static long sortableBits(double value) {
    double canonical = value == 0.0 ? 0.0 : value;
    long bits = Double.doubleToLongBits(canonical);
    // Negative doubles order backwards as bits: flip every bit but the sign.
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }

  /** The inverse of {@link #sortableBits}. */
  static double fromSortableBits(long sortable) {
    return Double.longBitsToDouble(sortable ^ ((sortable >> 63) & Long.MAX_VALUE));
  }

  /** A LONG value. */
  record LongValue(long value) implements Value {
    @Override
    public ValueType type() {
      return ValueType.LONG;
    }

    @Override
    public String toString() {
      return Long.toString(value);
    }
  }

  /** A DOUBLE value; -0.0 is stored as 0.0 and every NaN as the canonical NaN. */
  record DoubleValue(double value) implements Value {
    public DoubleValue {
      value = value == 0.0 ? 0.0 : (Double.isNaN(value) ? Double.NaN : value);
    }

    @Override
    public ValueType type() {
      return ValueType.DOUBLE;
    }

    @Override
    public String toString() {
      return Double.toString(value);
    }
  }

  /** A STRING value, compared by its UTF-8 bytes. */
  record StringValue(String value) implements Value {
    public StringValue {
      requireNonNull(value, "value is null");
    }

    /** The UTF-8 bytes (a fresh array). */
    public byte[] utf8() {
      return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public ValueType type() {
      return ValueType.STRING;
    }

    @Override
    public String toString() {
      return "'" + value.replace("'", "''") + "'";
    }
  }
}
