package io.shelfmark.benchmarks.parquet;

import java.util.SplittableRandom;

/**
 * Seeded value distributions for the generated benchmark columns, named as in STYLE.md item 15.
 * Parameters are fixed per constant so a JMH {@code @Param} can name one.
 *
 * <p>This is a local stand-in: the shared seeded {@code Distribution} enum the style guide places
 * in the {@code testing} module does not exist yet; when it does, this enum should delegate to it.
 */
public enum ValueDistribution {
  /** Uniform over [0, 10^9): ~30-bit deltas, a hard case for DELTA_BINARY_PACKED. */
  UNIFORM {
    @Override
    double next(SplittableRandom random) {
      return random.nextDouble(0, 1e9);
    }
  },
  /** Normal with mean 10^6 and deviation 10^4: values cluster, deltas need ~16 bits. */
  NORMAL {
    @Override
    double next(SplittableRandom random) {
      // Box-Muller: SplittableRandom has no nextGaussian on every JDK this may run with.
      double u = 1.0 - random.nextDouble();
      double v = random.nextDouble();
      return 1e6 + 1e4 * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
  },
  /** Exponential with rate 10^-3 (mean 1000): mostly small values, a long tail. */
  EXP {
    @Override
    double next(SplittableRandom random) {
      return -Math.log(1.0 - random.nextDouble()) / 1e-3;
    }
  },
  /** Always 42: the best case for every encoding. */
  POINT {
    @Override
    double next(SplittableRandom random) {
      return 42;
    }
  };

  /** The next value drawn from {@code random}. */
  abstract double next(SplittableRandom random);

  /** The next value rounded down to a long. */
  long nextLong(SplittableRandom random) {
    return (long) Math.floor(next(random));
  }
}
