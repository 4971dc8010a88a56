package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code dateTrunc('unit', value)} / {@code date_trunc('unit', value)}: the value rounded down to
 * the start of its unit, in UTC, of the value's own type. A LONG value is epoch milliseconds
 * (Pinot's convention); a TIMESTAMP or TIMESTAMP_TZ value is epoch microseconds. NULL stays NULL.
 * See {@link DateTruncUnit} for the units.
 *
 * <p>With a {@code count} above 1 (a fixed-width unit only: millisecond to day) the value is
 * rounded down to a multiple of {@code count} units since the epoch: Pinot's {@code
 * DATETIMECONVERT(..., '5:MINUTES')} buckets and Superset's {@code ROUND(..., 300000)} time grains.
 */
public record DateTrunc(DateTruncUnit unit, long count, Expression value) implements Expression {
  public DateTrunc(DateTruncUnit unit, Expression value) {
    this(unit, 1, value);
  }

  public DateTrunc {
    requireNonNull(unit, "unit is null");
    requireNonNull(value, "value is null");
    checkArgument(count >= 1, "count must be positive: %s", count);
    checkArgument(
        count == 1 || unit.compareTo(DateTruncUnit.DAY) <= 0,
        "a count above 1 needs a fixed-width unit: %s",
        unit);
    checkArgument(
        value.type() == PrimitiveType.LONG
            || value.type() == PrimitiveType.TIMESTAMP
            || value.type() == PrimitiveType.TIMESTAMP_TZ,
        "date_trunc takes epoch millis (LONG) or a TIMESTAMP: %s",
        value.type());
  }

  /** Truncates one value of this expression's type (millis for LONG, micros for timestamps). */
  public long truncate(long value) {
    if (count > 1) {
      long width = width();
      return Math.floorDiv(value, width) * width;
    }
    return type() == PrimitiveType.LONG
        ? unit.truncateEpochMillis(value)
        : unit.truncateEpochMicros(value);
  }

  /**
   * The bucket width in the value's own unit (millis for LONG, micros for timestamps), for a
   * fixed-width unit.
   */
  public long width() {
    long millis =
        switch (unit) {
          case MILLISECOND -> 1L;
          case SECOND -> 1_000L;
          case MINUTE -> 60_000L;
          case HOUR -> 3_600_000L;
          case DAY -> 86_400_000L;
          default -> throw new IllegalStateException("not a fixed-width unit: " + unit);
        };
    return Math.multiplyExact(
        Math.multiplyExact(millis, count), type() == PrimitiveType.LONG ? 1L : 1_000L);
  }

  @Override
  public SqlType type() {
    return value.type();
  }

  @Override
  public List<Expression> children() {
    return List.of(value);
  }

  @Override
  public String toString() {
    return count == 1
        ? "date_trunc('" + unit.sqlName() + "', " + value + ")"
        : "date_bin(" + count + " " + unit.sqlName() + ", " + value + ")";
  }
}
