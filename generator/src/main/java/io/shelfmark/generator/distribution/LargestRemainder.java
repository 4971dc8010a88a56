package io.shelfmark.generator.distribution;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * Splits a whole number of rows between buckets in proportion to their weights so that the parts
 * sum to the total exactly (Hamilton's largest-remainder method): each bucket first gets the floor
 * of its exact share, then the rows left over go one each to the buckets with the largest
 * fractional remainders, ties going to the lower index.
 *
 * <p>This is what makes the generated table's row count equal the requested one at every level (org
 * × day partitions, then one-minute slices inside a partition) without any randomness, so a
 * partition's size is known before a single row is generated.
 */
public final class LargestRemainder {
  private LargestRemainder() {}

  /**
   * Returns {@code weights.length} non-negative counts summing to {@code total}, each within one of
   * {@code total * weight / sum(weights)}.
   *
   * @throws IllegalArgumentException if {@code total} is negative, there are no weights, a weight
   *     is negative or not finite, or all weights are zero while {@code total} is positive
   */
  public static long[] allocate(long total, double[] weights) {
    requireNonNull(weights, "weights is null");
    if (total < 0) {
      throw new IllegalArgumentException("Cannot allocate rows: total is negative: " + total);
    }
    if (weights.length == 0) {
      throw new IllegalArgumentException("Cannot allocate rows: no buckets to allocate to");
    }
    double sum = 0;
    for (int i = 0; i < weights.length; i++) {
      double weight = weights[i];
      if (!(weight >= 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException(
            "Cannot allocate rows: weight " + i + " is " + weight + " (weights must be >= 0)");
      }
      sum += weight;
    }
    long[] counts = new long[weights.length];
    if (total == 0) {
      return counts;
    }
    if (sum == 0) {
      throw new IllegalArgumentException(
          "Cannot allocate " + total + " rows: every weight is zero");
    }
    double[] remainders = new double[weights.length];
    long assigned = 0;
    for (int i = 0; i < weights.length; i++) {
      double exact = total * (weights[i] / sum);
      long floor = (long) Math.floor(exact);
      counts[i] = floor;
      remainders[i] = exact - floor;
      assigned += floor;
    }
    long left = total - assigned;
    // Floating-point rounding can make the floors overshoot or undershoot by a few rows in
    // extreme cases; the loop below corrects either way, always by the most deserving bucket.
    Integer[] order = byRemainderDescending(remainders);
    for (int k = 0; left > 0; k = (k + 1) % order.length) {
      counts[order[k]]++;
      left--;
    }
    for (int k = order.length - 1; left < 0; k = (k + order.length - 1) % order.length) {
      if (counts[order[k]] > 0) {
        counts[order[k]]--;
        left++;
      }
    }
    return counts;
  }

  private static Integer[] byRemainderDescending(double[] remainders) {
    Integer[] order = new Integer[remainders.length];
    Arrays.setAll(order, i -> i);
    // Stable sort: equal remainders keep index order, so ties go to the lower index.
    Arrays.sort(order, (a, b) -> Double.compare(remainders[b], remainders[a]));
    return order;
  }
}
