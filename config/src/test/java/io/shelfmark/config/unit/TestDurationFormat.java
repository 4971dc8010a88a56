package io.shelfmark.config.unit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestDurationFormat {
  @Test
  void parsesShortForms() {
    assertThat(DurationFormat.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationFormat.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationFormat.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationFormat.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationFormat.parse("2d")).isEqualTo(Duration.ofDays(2));
    assertThat(DurationFormat.parse("10us")).isEqualTo(Duration.ofNanos(10_000));
    assertThat(DurationFormat.parse("7ns")).isEqualTo(Duration.ofNanos(7));
    assertThat(DurationFormat.parse(" 30 s ")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationFormat.parse("0s")).isEqualTo(Duration.ZERO);
  }

  @Test
  void parsesIso8601() {
    assertThat(DurationFormat.parse("PT30S")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationFormat.parse("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    assertThat(DurationFormat.parse("pt0.25s")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationFormat.parse("P1D")).isEqualTo(Duration.ofDays(1));
  }

  @Test
  void refusesWhatIsNotADuration() {
    String expected = " (expected a duration such as 250ms, 30s, 5m, 1h or PT30S)";
    assertThatThrownBy(() -> DurationFormat.parse("60"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot parse duration: \"60\"" + expected);
    assertThatThrownBy(() -> DurationFormat.parse("-5s"))
        .hasMessage("Cannot parse duration: \"-5s\"" + expected);
    assertThatThrownBy(() -> DurationFormat.parse("1.5s"))
        .hasMessage("Cannot parse duration: \"1.5s\"" + expected);
    assertThatThrownBy(() -> DurationFormat.parse(""))
        .hasMessage("Cannot parse duration: \"\"" + expected);
    assertThatThrownBy(() -> DurationFormat.parse("PTxS"))
        .hasMessage("Cannot parse duration: \"PTxS\"" + expected);
    assertThatThrownBy(() -> DurationFormat.parse("5 minutes"))
        .hasMessage(
            "Cannot parse duration: \"5 minutes\" (unknown unit minutes; use ns, us, ms, s, m, h"
                + " or d)");
    // Units are case-sensitive: M would be months or minutes depending on who wrote it.
    assertThatThrownBy(() -> DurationFormat.parse("5M")).hasMessageContaining("unknown unit M");
    assertThatThrownBy(() -> DurationFormat.parse("PT-5S"))
        .hasMessage("Cannot parse duration: \"PT-5S\" (must not be negative)");
    assertThatThrownBy(() -> DurationFormat.parse("99999999999999999999d"))
        .hasMessage("Cannot parse duration: \"99999999999999999999d\" (too large)");
    assertThatThrownBy(() -> DurationFormat.parse("999999999999999999d"))
        .hasMessage("Cannot parse duration: \"999999999999999999d\" (too large)");
  }

  @Test
  void formatsInLargestExactUnit() {
    assertThat(DurationFormat.format(Duration.ZERO)).isEqualTo("0s");
    assertThat(DurationFormat.format(Duration.ofSeconds(60))).isEqualTo("1m");
    assertThat(DurationFormat.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(DurationFormat.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(DurationFormat.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
    assertThat(DurationFormat.format(Duration.ofHours(48))).isEqualTo("2d");
    assertThat(DurationFormat.format(Duration.ofNanos(1_000_001))).isEqualTo("1000001ns");
    assertThatThrownBy(() -> DurationFormat.format(Duration.ofSeconds(-1)))
        .hasMessage("Cannot format negative duration: PT-1S");
  }

  @Test
  void formatRoundTrips() {
    Duration[] samples = {
      Duration.ZERO,
      Duration.ofNanos(1),
      Duration.ofNanos(1_500),
      Duration.ofMillis(999),
      Duration.ofSeconds(59),
      Duration.ofSeconds(3601),
      Duration.ofDays(365),
      Duration.ofSeconds(1, 1),
      Duration.ofDays(200_000),
      Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L + 5, 0)
    };
    for (Duration duration : samples) {
      assertThat(DurationFormat.parse(DurationFormat.format(duration)))
          .as("%s", duration)
          .isEqualTo(duration);
    }
  }
}
