package io.shelfmark.cache.stats;

import java.util.concurrent.atomic.LongAdder;

/** Counts with {@link LongAdder}s: contention-free increments, sums read on snapshot. */
final class ConcurrentStatsCounter implements StatsCounter {
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder coalesced = new LongAdder();
  private final LongAdder bytesServed = new LongAdder();
  private final LongAdder stores = new LongAdder();
  private final LongAdder bytesStored = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder evictedBytes = new LongAdder();
  private final LongAdder loadSuccesses = new LongAdder();
  private final LongAdder loadFailures = new LongAdder();
  private final LongAdder bytesLoaded = new LongAdder();
  private final LongAdder totalLoadNanos = new LongAdder();
  private final LongAdder corruptions = new LongAdder();
  private final LongAdder ioErrors = new LongAdder();

  @Override
  public void recordHit(long bytes) {
    hits.increment();
    bytesServed.add(bytes);
  }

  @Override
  public void recordMiss() {
    misses.increment();
  }

  @Override
  public void recordCoalesced() {
    coalesced.increment();
  }

  @Override
  public void recordStore(long weight) {
    stores.increment();
    bytesStored.add(weight);
  }

  @Override
  public void recordEviction(long weight) {
    evictions.increment();
    evictedBytes.add(weight);
  }

  @Override
  public void recordLoadSuccess(long bytes, long nanos) {
    loadSuccesses.increment();
    bytesLoaded.add(bytes);
    totalLoadNanos.add(Math.max(0, nanos));
  }

  @Override
  public void recordLoadFailure(long nanos) {
    loadFailures.increment();
    totalLoadNanos.add(Math.max(0, nanos));
  }

  @Override
  public void recordCorruption() {
    corruptions.increment();
  }

  @Override
  public void recordIoError() {
    ioErrors.increment();
  }

  @Override
  public CacheStats snapshot() {
    return new CacheStats(
        hits.sum(),
        misses.sum(),
        coalesced.sum(),
        bytesServed.sum(),
        stores.sum(),
        bytesStored.sum(),
        evictions.sum(),
        evictedBytes.sum(),
        loadSuccesses.sum(),
        loadFailures.sum(),
        bytesLoaded.sum(),
        totalLoadNanos.sum(),
        corruptions.sum(),
        ioErrors.sum());
  }

  @Override
  public String toString() {
    return "ConcurrentStatsCounter" + snapshot();
  }
}
