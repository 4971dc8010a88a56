package io.shelfmark.config.unit;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An amount of bytes, written in config files as {@code 512MB}, {@code 2GiB} or {@code 1024} (plain
 * bytes).
 *
 * <p>Decimal units ({@code KB}, {@code MB}, {@code GB}, {@code TB}, {@code PB}) are powers of 1000;
 * binary units ({@code KiB}, {@code MiB}, {@code GiB}, {@code TiB}, {@code PiB}) are powers of
 * 1024. Units are case-insensitive ({@code 512mb} is {@code 512MB}). A fractional amount is
 * accepted when it names a whole number of bytes ({@code 1.5GiB}). {@link #toString()} writes the
 * shortest exact form, so {@code parse(size.toString())} always equals {@code size}.
 *
 * @param bytes the number of bytes, never negative
 */
public record DataSize(long bytes) implements Comparable<DataSize> {
  private static final Pattern PATTERN =
      Pattern.compile("^\\s*(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]*)\\s*$");

  /** The units a size can be written in. */
  public enum Unit {
    BYTE("B", 1L),
    KILOBYTE("KB", 1000L),
    MEGABYTE("MB", 1000L * 1000),
    GIGABYTE("GB", 1000L * 1000 * 1000),
    TERABYTE("TB", 1000L * 1000 * 1000 * 1000),
    PETABYTE("PB", 1000L * 1000 * 1000 * 1000 * 1000),
    KIBIBYTE("KiB", 1L << 10),
    MEBIBYTE("MiB", 1L << 20),
    GIBIBYTE("GiB", 1L << 30),
    TEBIBYTE("TiB", 1L << 40),
    PEBIBYTE("PiB", 1L << 50);

    private final String suffix;
    private final long factor;

    Unit(String suffix, long factor) {
      this.suffix = suffix;
      this.factor = factor;
    }

    /** The suffix written after the amount, such as {@code MiB}. */
    public String suffix() {
      return suffix;
    }

    /** How many bytes one of this unit holds. */
    public long factor() {
      return factor;
    }
  }

  public DataSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("Cannot create a data size of " + bytes + " bytes");
    }
  }

  /** A size of {@code bytes} bytes. */
  public static DataSize ofBytes(long bytes) {
    return new DataSize(bytes);
  }

  /**
   * A size of {@code amount} of {@code unit}.
   *
   * @throws IllegalArgumentException if the amount is negative or the size exceeds {@link
   *     Long#MAX_VALUE} bytes
   */
  public static DataSize of(long amount, Unit unit) {
    requireNonNull(unit, "unit is null");
    try {
      return new DataSize(Math.multiplyExact(amount, unit.factor()));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "Cannot create a data size of " + amount + unit.suffix() + ": too large", e);
    }
  }

  /**
   * Parses {@code 512MB}, {@code 2GiB}, {@code 1.5GiB}, {@code 1024} or {@code 1024B}.
   *
   * @throws IllegalArgumentException naming the text when it is not a size
   */
  public static DataSize parse(String text) {
    requireNonNull(text, "text is null");
    Matcher matcher = PATTERN.matcher(text);
    if (!matcher.matches()) {
      throw invalid(text, "expected a size such as 512MB or 2GiB");
    }
    Unit unit = unitOf(matcher.group(2));
    if (unit == null) {
      throw invalid(text, "unknown unit; use B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB or PiB");
    }
    BigDecimal bytes = new BigDecimal(matcher.group(1)).multiply(BigDecimal.valueOf(unit.factor()));
    BigInteger whole;
    try {
      whole = bytes.toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw invalid(text, "not a whole number of bytes");
    }
    if (whole.bitLength() >= Long.SIZE) {
      throw invalid(text, "larger than " + Long.MAX_VALUE + " bytes");
    }
    return new DataSize(whole.longValue());
  }

  private static Unit unitOf(String suffix) {
    if (suffix.isEmpty()) {
      return Unit.BYTE;
    }
    for (Unit unit : Unit.values()) {
      if (unit.suffix().equalsIgnoreCase(suffix)) {
        return unit;
      }
    }
    return null;
  }

  private static IllegalArgumentException invalid(String text, String hint) {
    return new IllegalArgumentException("Cannot parse data size: \"" + text + "\" (" + hint + ")");
  }

  /** This size in {@code unit}, rounded down. */
  public long to(Unit unit) {
    requireNonNull(unit, "unit is null");
    return bytes / unit.factor();
  }

  @Override
  public int compareTo(DataSize other) {
    return Long.compare(bytes, other.bytes);
  }

  /**
   * The shortest exact form: the unit giving the smallest whole amount, binary units winning ties,
   * plain {@code B} when no larger unit divides the size ({@code 1GiB}, {@code 512MB}, {@code
   * 1000KiB}, {@code 1023B}).
   */
  @Override
  public String toString() {
    Unit best = Unit.BYTE;
    if (bytes == 0) {
      return "0B";
    }
    for (Unit unit : Unit.values()) {
      if (bytes % unit.factor() == 0 && bytes / unit.factor() <= bytes / best.factor()) {
        best = unit;
      }
    }
    return (bytes / best.factor()) + best.suffix();
  }
}
