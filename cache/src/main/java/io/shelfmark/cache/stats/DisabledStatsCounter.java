package io.shelfmark.cache.stats;

/** Records nothing. Stateless, so one shared instance is safe. */
enum DisabledStatsCounter implements StatsCounter {
  INSTANCE;

  @Override
  public void recordHit(long bytes) {}

  @Override
  public void recordMiss() {}

  @Override
  public void recordCoalesced() {}

  @Override
  public void recordStore(long weight) {}

  @Override
  public void recordEviction(long weight) {}

  @Override
  public void recordLoadSuccess(long bytes, long nanos) {}

  @Override
  public void recordLoadFailure(long nanos) {}

  @Override
  public void recordCorruption() {}

  @Override
  public void recordIoError() {}

  @Override
  public CacheStats snapshot() {
    return CacheStats.empty();
  }

  @Override
  public String toString() {
    return "DisabledStatsCounter";
  }
}
