package io.shelfmark.testing.distribution;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shared seeded value distributions of test data and benchmarks (STYLE item 15): {@code
 * UNIFORM(a,b)}, {@code NORMAL(m,s)}, {@code EXP(l)} and {@code POINT(v)}. Each is a small value
 * that draws from a generator the caller seeds, so the same seed gives the same values; {@link
 * #parse} reads the {@link #toString()} form, which suits JMH {@code @Param}s and test names.
 *
 * <pre>{@code
 * Distribution latency = Distribution.parse("EXP(0.05)");
 * SplittableRandom random = new SplittableRandom(42);
 * long value = latency.nextLong(random);
 * }</pre>
 *
 * <p>Thread safety: the values are immutable; the generator passed in is not shared-safe, so use
 * one per thread.
 */
public sealed interface Distribution {
  /** The kind, for switching and naming. */
  enum Kind {
    UNIFORM,
    NORMAL,
    EXP,
    POINT
  }

  Kind kind();

  /** The next value. */
  double next(SplittableRandom random);

  /** The next value rounded to the nearest long (saturating at the long range). */
  default long nextLong(SplittableRandom random) {
    return Math.round(next(random));
  }

  /** Uniform over {@code [low, high)}; {@code low == high} always gives {@code low}. */
  static Distribution uniform(double low, double high) {
    return new Uniform(low, high);
  }

  /** Normal (Gaussian) with this mean and standard deviation. */
  static Distribution normal(double mean, double deviation) {
    return new Normal(mean, deviation);
  }

  /** Exponential with this rate λ (mean 1/λ). */
  static Distribution exp(double rate) {
    return new Exponential(rate);
  }

  /** Always {@code value}. */
  static Distribution point(double value) {
    return new Point(value);
  }

  /**
   * Reads {@code UNIFORM(a,b)}, {@code NORMAL(m,s)}, {@code EXP(l)} or {@code POINT(v)} (kind in
   * any case, spaces allowed around the numbers).
   *
   * @throws IllegalArgumentException naming the text and the forms accepted
   */
  static Distribution parse(String text) {
    requireNonNull(text, "text is null");
    Matcher matcher = Parsing.FORM.matcher(text.strip());
    if (!matcher.matches()) {
      throw Parsing.invalid(text);
    }
    String[] numbers = matcher.group(2).split(",", -1);
    double[] values = new double[numbers.length];
    try {
      for (int i = 0; i < numbers.length; i++) {
        values[i] = Double.parseDouble(numbers[i].strip());
      }
    } catch (NumberFormatException e) {
      throw Parsing.invalid(text);
    }
    String kind = matcher.group(1).toUpperCase(Locale.ROOT);
    Distribution parsed =
        switch (kind) {
          case "UNIFORM" -> values.length == 2 ? uniform(values[0], values[1]) : null;
          case "NORMAL" -> values.length == 2 ? normal(values[0], values[1]) : null;
          case "EXP" -> values.length == 1 ? exp(values[0]) : null;
          case "POINT" -> values.length == 1 ? point(values[0]) : null;
          default -> null;
        };
    if (parsed == null) {
      throw Parsing.invalid(text);
    }
    return parsed;
  }

  /** Uniform over {@code [low, high)}. */
  record Uniform(double low, double high) implements Distribution {
    public Uniform {
      Parsing.check(
          Double.isFinite(low) && Double.isFinite(high) && low <= high,
          "UNIFORM",
          low + "," + high,
          "finite bounds with low <= high");
    }

    @Override
    public Kind kind() {
      return Kind.UNIFORM;
    }

    @Override
    public double next(SplittableRandom random) {
      return low == high ? low : random.nextDouble(low, high);
    }

    @Override
    public String toString() {
      return "UNIFORM(" + Parsing.number(low) + "," + Parsing.number(high) + ")";
    }
  }

  /** Normal with mean and standard deviation. */
  record Normal(double mean, double deviation) implements Distribution {
    public Normal {
      Parsing.check(
          Double.isFinite(mean) && Double.isFinite(deviation) && deviation >= 0,
          "NORMAL",
          mean + "," + deviation,
          "a finite mean and a deviation of 0 or more");
    }

    @Override
    public Kind kind() {
      return Kind.NORMAL;
    }

    @Override
    public double next(SplittableRandom random) {
      return mean + deviation * random.nextGaussian();
    }

    @Override
    public String toString() {
      return "NORMAL(" + Parsing.number(mean) + "," + Parsing.number(deviation) + ")";
    }
  }

  /** Exponential with rate λ. */
  record Exponential(double rate) implements Distribution {
    public Exponential {
      Parsing.check(Double.isFinite(rate) && rate > 0, "EXP", Double.toString(rate), "rate > 0");
    }

    @Override
    public Kind kind() {
      return Kind.EXP;
    }

    @Override
    public double next(SplittableRandom random) {
      return random.nextExponential() / rate;
    }

    @Override
    public String toString() {
      return "EXP(" + Parsing.number(rate) + ")";
    }
  }

  /** A single value. */
  record Point(double value) implements Distribution {
    public Point {
      Parsing.check(Double.isFinite(value), "POINT", Double.toString(value), "a finite value");
    }

    @Override
    public Kind kind() {
      return Kind.POINT;
    }

    @Override
    public double next(SplittableRandom random) {
      return value;
    }

    @Override
    public String toString() {
      return "POINT(" + Parsing.number(value) + ")";
    }
  }

  /** Text helpers of this interface; not for use elsewhere (an interface cannot hide them). */
  final class Parsing {
    private static final Pattern FORM = Pattern.compile("([A-Za-z]+)\\s*\\(([^()]*)\\)");

    private Parsing() {}

    static void check(boolean valid, String kind, String arguments, String expected) {
      if (!valid) {
        throw new IllegalArgumentException(
            "Cannot make distribution " + kind + "(" + arguments + "): expected " + expected);
      }
    }

    static String number(double value) {
      return value == Math.rint(value) && Math.abs(value) < 1e15
          ? Long.toString((long) value)
          : Double.toString(value);
    }

    static IllegalArgumentException invalid(String text) {
      return new IllegalArgumentException(
          "Cannot parse distribution: "
              + text
              + " (expected UNIFORM(a,b), NORMAL(m,s), EXP(l) or POINT(v))");
    }
  }
}
