package io.shelfmark.segment.testing;

import java.util.SplittableRandom;

/**
 * Seeded value distributions for test columns (STYLE item 15; to move to the shared {@code testing}
 * module once it exists). Each draws a long from a {@link SplittableRandom}.
 */
public enum Distribution {
  /** Uniform over {@code a .. b - 1}. */
  UNIFORM {
    @Override
    public long draw(SplittableRandom random, double a, double b) {
      return (long) a + random.nextLong(Math.max(1, (long) b - (long) a));
    }
  },
  /** Normal with mean {@code a} and standard deviation {@code b}, rounded. */
  NORMAL {
    @Override
    public long draw(SplittableRandom random, double a, double b) {
      // Box-Muller on two uniforms: SplittableRandom has no nextGaussian.
      double u = 1 - random.nextDouble();
      double v = random.nextDouble();
      return Math.round(a + b * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
    }
  },
  /** Exponential with rate {@code a}, scaled by {@code b}, rounded: a few values dominate. */
  EXP {
    @Override
    public long draw(SplittableRandom random, double a, double b) {
      return Math.round(-Math.log(1 - random.nextDouble()) / a * b);
    }
  },
  /** Always {@code a}. */
  POINT {
    @Override
    public long draw(SplittableRandom random, double a, double b) {
      return (long) a;
    }
  };

  public abstract long draw(SplittableRandom random, double a, double b);
}
