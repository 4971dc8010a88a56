package io.shelfmark.sql.expression;

import java.time.LocalDate;
import java.util.Locale;
import java.util.Optional;

/**
 * The units of {@code dateTrunc}/{@code date_trunc}, all in UTC. Weeks start on Monday (ISO, as in
 * DuckDB and Pinot); quarters on January, April, July and October 1st. Values before 1970 round
 * down too (toward negative infinity), never toward zero.
 */
public enum DateTruncUnit {
  MILLISECOND,
  SECOND,
  MINUTE,
  HOUR,
  DAY,
  WEEK,
  MONTH,
  QUARTER,
  YEAR;

  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  /** The unit named {@code name} (case-insensitive, singular: {@code 'second'}). */
  public static Optional<DateTruncUnit> parse(String name) {
    for (DateTruncUnit unit : values()) {
      if (unit.name().equalsIgnoreCase(name)) {
        return Optional.of(unit);
      }
    }
    return Optional.empty();
  }

  /** As written in SQL: {@code second}. */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The start of the unit holding {@code epochMillis}. Allocation-free below WEEK. */
  public long truncateEpochMillis(long epochMillis) {
    return switch (this) {
      case MILLISECOND -> epochMillis;
      case SECOND -> floor(epochMillis, 1_000L);
      case MINUTE -> floor(epochMillis, 60_000L);
      case HOUR -> floor(epochMillis, 3_600_000L);
      case DAY -> floor(epochMillis, MILLIS_PER_DAY);
      default -> firstDay(Math.floorDiv(epochMillis, MILLIS_PER_DAY)) * MILLIS_PER_DAY;
    };
  }

  /** The start of the unit holding {@code epochMicros}. Allocation-free below WEEK. */
  public long truncateEpochMicros(long epochMicros) {
    return switch (this) {
      case MILLISECOND -> floor(epochMicros, 1_000L);
      case SECOND -> floor(epochMicros, 1_000_000L);
      case MINUTE -> floor(epochMicros, 60_000_000L);
      case HOUR -> floor(epochMicros, 3_600_000_000L);
      case DAY -> floor(epochMicros, MICROS_PER_DAY);
      default -> firstDay(Math.floorDiv(epochMicros, MICROS_PER_DAY)) * MICROS_PER_DAY;
    };
  }

  private static long floor(long value, long unit) {
    return Math.floorDiv(value, unit) * unit;
  }

  // The first epoch day of the week, month, quarter or year holding epochDay.
  private long firstDay(long epochDay) {
    if (this == WEEK) {
      // 1970-01-01 was a Thursday: shifting by 3 makes Monday remainder 0.
      return epochDay - Math.floorMod(epochDay + 3, 7);
    }
    LocalDate date = LocalDate.ofEpochDay(epochDay);
    LocalDate first =
        switch (this) {
          case MONTH -> date.withDayOfMonth(1);
          case QUARTER -> date.withDayOfMonth(1).withMonth((date.getMonthValue() - 1) / 3 * 3 + 1);
          case YEAR -> date.withDayOfYear(1);
          default -> throw new IllegalStateException("not a calendar unit: " + this);
        };
    return first.toEpochDay();
  }
}
