package io.shelfmark.config.unit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations as config files spell them: a whole amount and a unit ({@code 250ms},
 * {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}; also {@code ns} and {@code us}) or ISO-8601
 * ({@code PT30S}). Negative durations are refused. {@link #format(Duration)} writes the largest
 * unit that divides the duration exactly, so {@code parse(format(d))} equals {@code d}.
 */
public final class DurationFormat {
  private static final Pattern PATTERN = Pattern.compile("^\\s*(\\d+)\\s*([a-zA-Z]+)\\s*$");

  /** Units from largest to smallest, so {@link #format} can stop at the first exact one. */
  private static final String[] SUFFIXES = {"d", "h", "m", "s", "ms", "us", "ns"};

  private static final long[] NANOS = {
    86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L
  };

  private DurationFormat() {}

  /**
   * Parses {@code 250ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}, {@code 10us}, {@code
   * 10ns} or ISO-8601 such as {@code PT1M30S}.
   *
   * @throws IllegalArgumentException naming the text when it is not a non-negative duration
   */
  public static Duration parse(String text) {
    requireNonNull(text, "text is null");
    String trimmed = text.strip();
    if (trimmed.startsWith("P") || trimmed.startsWith("p")) {
      return parseIso(text, trimmed);
    }
    Matcher matcher = PATTERN.matcher(trimmed);
    if (!matcher.matches()) {
      throw invalid(text);
    }
    String unit = matcher.group(2);
    for (int i = 0; i < SUFFIXES.length; i++) {
      if (SUFFIXES[i].equals(unit)) {
        try {
          long amount = Long.parseLong(matcher.group(1));
          return scaled(amount, i);
        } catch (NumberFormatException | ArithmeticException e) {
          throw new IllegalArgumentException(
              "Cannot parse duration: \"" + text + "\" (too large)", e);
        }
      }
    }
    throw new IllegalArgumentException(
        "Cannot parse duration: \""
            + text
            + "\" (unknown unit "
            + unit
            + "; use ns, us, ms, s, m, h or d)");
  }

  private static Duration scaled(long amount, int unitIndex) {
    long nanosPerUnit = NANOS[unitIndex];
    long secondsPerUnit = nanosPerUnit / 1_000_000_000L;
    if (secondsPerUnit > 0) {
      return Duration.ofSeconds(Math.multiplyExact(amount, secondsPerUnit));
    }
    return Duration.ofNanos(Math.multiplyExact(amount, nanosPerUnit));
  }

  private static Duration parseIso(String text, String trimmed) {
    Duration duration;
    try {
      duration = Duration.parse(trimmed);
    } catch (DateTimeParseException e) {
      throw invalid(text);
    }
    if (duration.isNegative()) {
      throw new IllegalArgumentException(
          "Cannot parse duration: \"" + text + "\" (must not be negative)");
    }
    return duration;
  }

  private static IllegalArgumentException invalid(String text) {
    return new IllegalArgumentException(
        "Cannot parse duration: \""
            + text
            + "\" (expected a duration such as 250ms, 30s, 5m, 1h or PT30S)");
  }

  /** Writes {@code duration} in the largest unit that divides it exactly, such as {@code 90s}. */
  public static String format(Duration duration) {
    requireNonNull(duration, "duration is null");
    if (duration.isNegative()) {
      throw new IllegalArgumentException("Cannot format negative duration: " + duration);
    }
    if (duration.isZero()) {
      return "0s";
    }
    for (int i = 0; i < SUFFIXES.length; i++) {
      long nanosPerUnit = NANOS[i];
      if (nanosPerUnit >= 1_000_000_000L) {
        long secondsPerUnit = nanosPerUnit / 1_000_000_000L;
        if (duration.getNano() == 0 && duration.getSeconds() % secondsPerUnit == 0) {
          return duration.getSeconds() / secondsPerUnit + SUFFIXES[i];
        }
      } else if (duration.getSeconds() < Long.MAX_VALUE / 1_000_000_000L
          && duration.getNano() % nanosPerUnit == 0) {
        // Sub-second units: the whole duration fits in nanoseconds below ~292 years.
        return duration.toNanos() / nanosPerUnit + SUFFIXES[i];
      }
    }
    // Unreachable for durations below ~292 years; ISO-8601 is exact for the rest.
    return duration.toString();
  }
}
