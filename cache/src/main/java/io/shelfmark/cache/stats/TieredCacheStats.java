package io.shelfmark.cache.stats;

import static java.util.Objects.requireNonNull;

/**
 * A reading of the whole tiered cache: requests and fetches overall, and each tier's own view.
 *
 * @param overall requests served from a tier (hits), requests that fetched (misses), requests that
 *     joined another's fetch (coalesced), and the fetches themselves (loads, failures, latency)
 * @param memory the memory tier
 * @param disk the disk tier
 */
public record TieredCacheStats(CacheStats overall, TierStats memory, TierStats disk) {
  public TieredCacheStats {
    requireNonNull(overall, "overall is null");
    requireNonNull(memory, "memory is null");
    requireNonNull(disk, "disk is null");
  }
}
