package io.shelfmark.sql.expression;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TestDateTruncUnit {
  // 2025-08-03T14:25:36.789Z, a Sunday.
  private static final long MILLIS = Instant.parse("2025-08-03T14:25:36.789Z").toEpochMilli();

  private static long millis(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  @Test
  void everyUnitOnEpochMillis() {
    assertThat(DateTruncUnit.MILLISECOND.truncateEpochMillis(MILLIS)).isEqualTo(MILLIS);
    assertThat(DateTruncUnit.SECOND.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-08-03T14:25:36Z"));
    assertThat(DateTruncUnit.MINUTE.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-08-03T14:25:00Z"));
    assertThat(DateTruncUnit.HOUR.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-08-03T14:00:00Z"));
    assertThat(DateTruncUnit.DAY.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-08-03T00:00:00Z"));
    // ISO weeks start on Monday: the Sunday belongs to the week of Monday July 28 (as DuckDB).
    assertThat(DateTruncUnit.WEEK.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-07-28T00:00:00Z"));
    assertThat(DateTruncUnit.MONTH.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-08-01T00:00:00Z"));
    assertThat(DateTruncUnit.QUARTER.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-07-01T00:00:00Z"));
    assertThat(DateTruncUnit.YEAR.truncateEpochMillis(MILLIS))
        .isEqualTo(millis("2025-01-01T00:00:00Z"));
  }

  @Test
  void microsMatchMillis() {
    long micros = MILLIS * 1000 + 123;
    for (DateTruncUnit unit : DateTruncUnit.values()) {
      long expected =
          unit == DateTruncUnit.MILLISECOND
              ? MILLIS * 1000
              : unit.truncateEpochMillis(MILLIS) * 1000;
      assertThat(unit.truncateEpochMicros(micros)).as(unit.name()).isEqualTo(expected);
    }
  }

  @Test
  void beforeTheEpochRoundsDown() {
    long millis = millis("1969-12-31T23:59:59.500Z");
    assertThat(DateTruncUnit.SECOND.truncateEpochMillis(millis))
        .isEqualTo(millis("1969-12-31T23:59:59Z"));
    assertThat(DateTruncUnit.DAY.truncateEpochMillis(millis))
        .isEqualTo(millis("1969-12-31T00:00:00Z"));
    assertThat(DateTruncUnit.WEEK.truncateEpochMillis(millis))
        .isEqualTo(millis("1969-12-29T00:00:00Z"));
    assertThat(DateTruncUnit.YEAR.truncateEpochMillis(millis))
        .isEqualTo(millis("1969-01-01T00:00:00Z"));
  }

  @Test
  void agreesWithJavaTimeOnRandomInstants() {
    Random random = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      long millis = random.nextLong(-4_000_000_000_000L, 4_000_000_000_000L);
      LocalDateTime time = LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), ZoneOffset.UTC);
      assertThat(DateTruncUnit.HOUR.truncateEpochMillis(millis))
          .isEqualTo(epochMillis(time.truncatedTo(ChronoUnit.HOURS)));
      assertThat(DateTruncUnit.WEEK.truncateEpochMillis(millis))
          .isEqualTo(
              epochMillis(
                  time.truncatedTo(ChronoUnit.DAYS)
                      .with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))));
      assertThat(DateTruncUnit.QUARTER.truncateEpochMillis(millis))
          .isEqualTo(
              epochMillis(
                  time.truncatedTo(ChronoUnit.DAYS)
                      .withDayOfMonth(1)
                      .withMonth((time.getMonthValue() - 1) / 3 * 3 + 1)));
    }
  }

  private static long epochMillis(LocalDateTime time) {
    return time.toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  @Test
  void parseIgnoresCase() {
    assertThat(DateTruncUnit.parse("Second")).contains(DateTruncUnit.SECOND);
    assertThat(DateTruncUnit.parse("QUARTER")).contains(DateTruncUnit.QUARTER);
    assertThat(DateTruncUnit.parse("seconds")).isEmpty();
  }
}
