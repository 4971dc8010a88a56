package io.shelfmark.server.aggregate;

import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.Optional;

/**
 * A {@code dateTrunc} whose unit has a fixed width in the value's own unit (millis for LONG, micros
 * for timestamps): its result is {@code floorDiv(x, width) * width}, so rows can be grouped by the
 * bucket number {@code floorDiv(x, width)}. Calendar units (week and longer) have no fixed width,
 * and {@code dateTrunc('millisecond', millis)} is the value itself.
 */
enum TimeBucket {
  MILLIS_SECOND,
  MILLIS_MINUTE,
  MILLIS_HOUR,
  MILLIS_DAY,
  MICROS_MILLISECOND,
  MICROS_SECOND,
  MICROS_MINUTE,
  MICROS_HOUR,
  MICROS_DAY,
  /** A multiple of a unit ({@code DATETIMECONVERT}'s '5:MINUTES'): the width is the key's. */
  MULTIPLE;

  /** The bucketing of {@code key}, when it is a {@code dateTrunc} of a fixed-width unit. */
  static Optional<TimeBucket> of(Expression key) {
    if (!(key instanceof DateTrunc trunc)) {
      return Optional.empty();
    }
    if (trunc.count() > 1) {
      return Optional.of(MULTIPLE);
    }
    boolean millis = trunc.value().type() == PrimitiveType.LONG;
    TimeBucket bucket =
        switch (trunc.unit()) {
          case MILLISECOND -> millis ? null : MICROS_MILLISECOND;
          case SECOND -> millis ? MILLIS_SECOND : MICROS_SECOND;
          case MINUTE -> millis ? MILLIS_MINUTE : MICROS_MINUTE;
          case HOUR -> millis ? MILLIS_HOUR : MICROS_HOUR;
          case DAY -> millis ? MILLIS_DAY : MICROS_DAY;
          case WEEK, MONTH, QUARTER, YEAR -> null;
        };
    return Optional.ofNullable(bucket);
  }
}
