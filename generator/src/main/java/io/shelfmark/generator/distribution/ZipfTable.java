package io.shelfmark.generator.distribution;

import java.util.Arrays;

/**
 * A Zipf distribution over ranks {@code 0..n-1}: rank {@code k} has probability proportional to
 * {@code 1 / (k + 1)^exponent}. Sampling maps one uniform double to a rank through the cumulative
 * table (binary search, no allocation), so a caller controls the random stream.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class ZipfTable {
  private final double[] cumulative;
  private final double exponent;

  /**
   * @throws IllegalArgumentException if {@code n} is not positive or the exponent is negative or
   *     not finite
   */
  public ZipfTable(int n, double exponent) {
    if (n <= 0) {
      throw new IllegalArgumentException("Cannot create Zipf table: size is " + n + " (need >= 1)");
    }
    if (!(exponent >= 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException(
          "Cannot create Zipf table: exponent is " + exponent + " (need a finite value >= 0)");
    }
    this.exponent = exponent;
    double[] weights = weights(n, exponent);
    double sum = 0;
    for (double weight : weights) {
      sum += weight;
    }
    cumulative = new double[n];
    double running = 0;
    for (int k = 0; k < n; k++) {
      running += weights[k];
      cumulative[k] = running / sum;
    }
    // Pin the last bound so that every u in [0, 1) lands on a rank despite rounding.
    cumulative[n - 1] = 1.0;
  }

  /** The unnormalised Zipf weights {@code 1 / (k + 1)^exponent} for ranks {@code 0..n-1}. */
  public static double[] weights(int n, double exponent) {
    double[] weights = new double[n];
    for (int k = 0; k < n; k++) {
      weights[k] = 1.0 / Math.pow(k + 1, exponent);
    }
    return weights;
  }

  /** The number of ranks. */
  public int size() {
    return cumulative.length;
  }

  /** The probability of rank {@code k}. */
  public double probability(int k) {
    return k == 0 ? cumulative[0] : cumulative[k] - cumulative[k - 1];
  }

  /** Maps a uniform {@code u} in {@code [0, 1)} to a rank. */
  public int sample(double u) {
    int index = Arrays.binarySearch(cumulative, u);
    // An exact hit on a bound belongs to the next rank (bounds are exclusive upper limits).
    int rank = index >= 0 ? index + 1 : -index - 1;
    return Math.min(rank, cumulative.length - 1);
  }

  @Override
  public String toString() {
    return "ZipfTable{size=" + cumulative.length + ", exponent=" + exponent + "}";
  }
}
