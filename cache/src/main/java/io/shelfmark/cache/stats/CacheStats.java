package io.shelfmark.cache.stats;

import java.util.Arrays;

/**
 * An immutable reading of one tier's counters, or of the tiered cache's as a whole. One shape for
 * both, so reports and the metrics endpoint treat them alike.
 *
 * <p>For a tier: hits and misses are lookups in that tier; a load is a miss of that tier being
 * filled (from a lower tier or from the object store). For the tiered cache: a hit is a request
 * served from any tier, a miss is a request that called the fetcher, a coalesced request waited for
 * another request's fetch of the same range, and loads are fetcher calls. Coalesced requests are
 * neither hits nor misses, so {@code hits + misses + coalesced} is the number of requests.
 *
 * @param hitCount lookups that found the entry
 * @param missCount lookups that did not (tiered cache: requests that fetched)
 * @param coalescedCount requests that joined a fetch already in flight (tiered cache only)
 * @param bytesServed payload bytes returned by hits
 * @param storeCount entries added
 * @param bytesStored weight added by stores (payload plus the tier's per-entry overhead)
 * @param evictionCount entries evicted to respect the bound
 * @param evictedBytes weight removed by evictions
 * @param loadSuccessCount misses filled
 * @param loadFailureCount misses whose filling failed (nothing was cached)
 * @param bytesLoaded payload bytes of successful loads
 * @param totalLoadNanos time spent loading, successful or not
 * @param corruptionCount entries that failed their checksum or structure check and were dropped
 * @param ioErrorCount the tier's own reads or writes that failed (not corruption)
 */
public record CacheStats(
    long hitCount,
    long missCount,
    long coalescedCount,
    long bytesServed,
    long storeCount,
    long bytesStored,
    long evictionCount,
    long evictedBytes,
    long loadSuccessCount,
    long loadFailureCount,
    long bytesLoaded,
    long totalLoadNanos,
    long corruptionCount,
    long ioErrorCount) {

  private static final CacheStats EMPTY = new CacheStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

  public CacheStats {
    long[] values = {
      hitCount,
      missCount,
      coalescedCount,
      bytesServed,
      storeCount,
      bytesStored,
      evictionCount,
      evictedBytes,
      loadSuccessCount,
      loadFailureCount,
      bytesLoaded,
      totalLoadNanos,
      corruptionCount,
      ioErrorCount
    };
    for (long value : values) {
      if (value < 0) {
        throw new IllegalArgumentException(
            "Cannot create cache statistics: negative counter in " + Arrays.toString(values));
      }
    }
  }

  /** All counters zero. */
  public static CacheStats empty() {
    return EMPTY;
  }

  /** Lookups (tier) or requests (tiered cache): hits, misses and coalesced requests. */
  public long requestCount() {
    return hitCount + missCount + coalescedCount;
  }

  /** Hits over requests; 1.0 when there were no requests, as nothing was missed. */
  public double hitRate() {
    long requests = requestCount();
    return requests == 0 ? 1.0 : (double) hitCount / requests;
  }

  /** Loads attempted, successful or not. */
  public long loadCount() {
    return loadSuccessCount + loadFailureCount;
  }

  /** Mean time per load in nanoseconds; 0 when nothing was loaded. */
  public double averageLoadNanos() {
    long loads = loadCount();
    return loads == 0 ? 0.0 : (double) totalLoadNanos / loads;
  }

  /**
   * What happened between {@code earlier} and this reading, counter by counter. Counters only grow,
   * so a difference below zero can only come from passing readings in the wrong order or of
   * different counters; it is clamped to zero rather than producing an invalid snapshot.
   */
  public CacheStats minus(CacheStats earlier) {
    return new CacheStats(
        Math.max(0, hitCount - earlier.hitCount),
        Math.max(0, missCount - earlier.missCount),
        Math.max(0, coalescedCount - earlier.coalescedCount),
        Math.max(0, bytesServed - earlier.bytesServed),
        Math.max(0, storeCount - earlier.storeCount),
        Math.max(0, bytesStored - earlier.bytesStored),
        Math.max(0, evictionCount - earlier.evictionCount),
        Math.max(0, evictedBytes - earlier.evictedBytes),
        Math.max(0, loadSuccessCount - earlier.loadSuccessCount),
        Math.max(0, loadFailureCount - earlier.loadFailureCount),
        Math.max(0, bytesLoaded - earlier.bytesLoaded),
        Math.max(0, totalLoadNanos - earlier.totalLoadNanos),
        Math.max(0, corruptionCount - earlier.corruptionCount),
        Math.max(0, ioErrorCount - earlier.ioErrorCount));
  }

  /** The counter-by-counter sum, e.g. to combine the caches of several servers. */
  public CacheStats plus(CacheStats other) {
    return new CacheStats(
        hitCount + other.hitCount,
        missCount + other.missCount,
        coalescedCount + other.coalescedCount,
        bytesServed + other.bytesServed,
        storeCount + other.storeCount,
        bytesStored + other.bytesStored,
        evictionCount + other.evictionCount,
        evictedBytes + other.evictedBytes,
        loadSuccessCount + other.loadSuccessCount,
        loadFailureCount + other.loadFailureCount,
        bytesLoaded + other.bytesLoaded,
        totalLoadNanos + other.totalLoadNanos,
        corruptionCount + other.corruptionCount,
        ioErrorCount + other.ioErrorCount);
  }
}
