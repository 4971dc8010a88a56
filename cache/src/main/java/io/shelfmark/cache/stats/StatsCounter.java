package io.shelfmark.cache.stats;

/**
 * Receives the events of one cache tier, or of the tiered cache as a whole, and turns them into a
 * {@link CacheStats} snapshot.
 *
 * <p>Thread safety: implementations are called concurrently from every reading thread and from the
 * tiers' maintenance (eviction) threads, so they must be safe for concurrent use and cheap: a
 * counter increment, no locks, no allocation.
 *
 * <p>Use {@link #concurrent()} to count and {@link #disabled()} to skip counting entirely.
 */
public interface StatsCounter {

  /** A lookup found the entry; {@code bytes} is the payload length returned. */
  void recordHit(long bytes);

  /** A lookup did not find the entry (for the tiered cache: the request called the fetcher). */
  void recordMiss();

  /** A request found a fetch of the same range in flight and waited for it instead of fetching. */
  void recordCoalesced();

  /** An entry was added; {@code weight} is what it counts against the tier's bound. */
  void recordStore(long weight);

  /** An entry was evicted to respect the bound; {@code weight} is what it had counted. */
  void recordEviction(long weight);

  /** A miss was filled: {@code bytes} loaded in {@code nanos} (from a lower tier or the store). */
  void recordLoadSuccess(long bytes, long nanos);

  /** Filling a miss failed after {@code nanos}; nothing was cached. */
  void recordLoadFailure(long nanos);

  /** A stored entry failed its checksum or structure check and was dropped. */
  void recordCorruption();

  /** A tier's own read or write failed (disk error, not corruption); the entry was not used. */
  void recordIoError();

  /** An immutable reading of the counters so far. */
  CacheStats snapshot();

  /** A counter backed by {@link java.util.concurrent.atomic.LongAdder}s. */
  static StatsCounter concurrent() {
    return new ConcurrentStatsCounter();
  }

  /** A counter that records nothing; its snapshot is always {@link CacheStats#empty()}. */
  static StatsCounter disabled() {
    return DisabledStatsCounter.INSTANCE;
  }
}
