package io.shelfmark.cli.bench.report;

/**
 * Client-observed latencies of the hot runs of one query (HTTP request to last byte).
 *
 * @param runs runs made, the first included
 * @param firstMs run 1 (JIT still cold; excluded from the statistics)
 * @param medianMs median of runs 2..N (nearest rank)
 * @param p95Ms 95th percentile of runs 2..N (nearest rank)
 * @param minMs fastest of runs 2..N
 * @param maxMs slowest of runs 2..N
 */
public record LatencySummary(
    int runs, double firstMs, double medianMs, double p95Ms, double minMs, double maxMs) {
  /**
   * Summarises run latencies in nanoseconds, {@code runs[0]} being the first.
   *
   * @throws IllegalArgumentException with fewer than two runs
   */
  public static LatencySummary ofNanos(long[] runs) {
    if (runs.length < 2) {
      throw new IllegalArgumentException(
          "Cannot summarise " + runs.length + " runs (need at least 2: run 1 is excluded)");
    }
    long[] rest = java.util.Arrays.copyOfRange(runs, 1, runs.length);
    java.util.Arrays.sort(rest);
    return new LatencySummary(
        runs.length,
        runs[0] / 1e6,
        Percentile.nearestRank(rest, 50) / 1e6,
        Percentile.nearestRank(rest, 95) / 1e6,
        rest[0] / 1e6,
        rest[rest.length - 1] / 1e6);
  }
}
