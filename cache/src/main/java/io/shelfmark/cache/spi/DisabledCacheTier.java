package io.shelfmark.cache.spi;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.stats.StatsCounter;
import java.util.Optional;

/** The tier that holds nothing; see {@link CacheTier#disabled(String)}. */
record DisabledCacheTier(String name) implements CacheTier {
  DisabledCacheTier {
    requireNonNull(name, "name is null");
  }

  @Override
  public Optional<byte[]> get(CacheKey key) {
    return Optional.empty();
  }

  @Override
  public Optional<byte[]> getQuietly(CacheKey key) {
    return Optional.empty();
  }

  @Override
  public void put(CacheKey key, byte[] bytes) {}

  @Override
  public void invalidate(CacheKey key) {}

  @Override
  public void invalidateAll() {}

  @Override
  public long weightedSize() {
    return 0;
  }

  @Override
  public long maximumWeight() {
    return 0;
  }

  @Override
  public long entryCount() {
    return 0;
  }

  @Override
  public void cleanUp() {}

  @Override
  public StatsCounter statsCounter() {
    return StatsCounter.disabled();
  }

  @Override
  public void close() {}
}
