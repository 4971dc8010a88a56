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
 */
public record DateTrunc(DateTruncUnit unit, Expression value) implements Expression {
  public DateTrunc {
    requireNonNull(unit, "unit is null");
    requireNonNull(value, "value is null");
    checkArgument(
        value.type() == PrimitiveType.LONG
            || value.type() == PrimitiveType.TIMESTAMP
            || value.type() == PrimitiveType.TIMESTAMP_TZ,
        "date_trunc takes epoch millis (LONG) or a TIMESTAMP: %s",
        value.type());
  }

  /** Truncates one value of this expression's type (millis for LONG, micros for timestamps). */
  public long truncate(long value) {
    return type() == PrimitiveType.LONG
        ? unit.truncateEpochMillis(value)
        : unit.truncateEpochMicros(value);
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
    return "date_trunc('" + unit.sqlName() + "', " + value + ")";
  }
}
