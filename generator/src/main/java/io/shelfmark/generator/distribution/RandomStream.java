package io.shelfmark.generator.distribution;

/**
 * A SplitMix64 pseudo-random stream: the generator behind {@link java.util.SplittableRandom},
 * written out here so that the generated table depends on nothing but this class (not on a JDK's
 * choice of bounded-int or Gaussian algorithm), and so the hot loop makes no virtual calls.
 *
 * <p>Not thread-safe: each writer thread owns its streams. Statistical quality is ample for test
 * data; it is not a cryptographic generator.
 */
public final class RandomStream {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;
  private static final double DOUBLE_UNIT = 0x1.0p-53;

  private long state;

  public RandomStream(long seed) {
    this.state = seed;
  }

  /**
   * Restarts the stream from {@code seed}, as if newly created (lets a caller reuse one object).
   */
  public void reset(long seed) {
    this.state = seed;
  }

  /** A uniform 64-bit value. */
  public long nextLong() {
    long z = (state += GOLDEN_GAMMA);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** A uniform double in {@code [0, 1)} with 53 random bits. */
  public double nextDouble() {
    return (nextLong() >>> 11) * DOUBLE_UNIT;
  }

  /**
   * A uniform int in {@code [0, bound)} by multiply-shift of 32 random bits. The bias is at most
   * {@code bound / 2^32} (below 0.003% for the bounds used here), which test data can afford in
   * exchange for never looping.
   */
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("Cannot draw a bounded int: bound is " + bound);
    }
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** An exponentially distributed value with the given mean; always finite and non-negative. */
  public double nextExponential(double mean) {
    // 1 - u lies in (0, 1], so the logarithm is finite: no infinity, no NaN.
    return -Math.log(1.0 - nextDouble()) * mean;
  }

  /**
   * A normally distributed value (Box-Muller, one of the pair kept so the stream needs no cached
   * state); always finite.
   */
  public double nextGaussian(double mean, double standardDeviation) {
    double radius = Math.sqrt(-2.0 * Math.log(1.0 - nextDouble()));
    double angle = 2.0 * Math.PI * nextDouble();
    return mean + standardDeviation * radius * Math.cos(angle);
  }
}
