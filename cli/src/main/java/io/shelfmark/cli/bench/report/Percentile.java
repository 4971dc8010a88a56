package io.shelfmark.cli.bench.report;

/** Nearest-rank percentiles, the definition the report uses everywhere. */
public final class Percentile {
  private Percentile() {}

  /**
   * The {@code p}-th percentile of ascending {@code sorted} values by nearest rank: the value at
   * rank ceil(p/100 × n), 1-based. p50 of 1..10 is 5, p95 of 1..20 is 19, p99 of 1..10 is 10.
   *
   * @throws IllegalArgumentException when empty or p is outside (0, 100]
   */
  public static long nearestRank(long[] sorted, double p) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("Cannot take a percentile of no values");
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("Cannot take percentile " + p + " (use 0 < p <= 100)");
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(1, rank) - 1];
  }
}
