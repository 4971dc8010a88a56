package io.shelfmark.cache.stats;

import static java.util.Objects.requireNonNull;

/**
 * A tier's counters together with its gauges at the same moment.
 *
 * @param name the tier's name ({@code memory}, {@code disk})
 * @param stats its counters
 * @param weightedSize bytes currently counted against its bound
 * @param maximumWeight its bound in bytes (0 for a disabled tier)
 * @param entryCount entries currently held (an estimate while maintenance is pending)
 */
public record TierStats(
    String name, CacheStats stats, long weightedSize, long maximumWeight, long entryCount) {
  public TierStats {
    requireNonNull(name, "name is null");
    requireNonNull(stats, "stats is null");
  }
}
