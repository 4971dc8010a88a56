package io.shelfmark.cache.memory;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.spi.CacheTier;
import io.shelfmark.cache.stats.StatsCounter;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The memory tier: a Caffeine cache of byte arrays bounded by bytes, not entries.
 *
 * <p>Each entry weighs its payload length plus {@link #ENTRY_OVERHEAD_BYTES}, an estimate of the
 * key, array header and map node, so that many small pages cannot hold far more heap than the bound
 * says. Eviction is Caffeine's W-TinyLFU: recency within a small window, frequency for admission to
 * the main space, which keeps hot footers and dictionary pages resident while a large scan streams
 * through.
 *
 * <p>Thread safety: safe for concurrent use. Evictions run on the injected executor (Caffeine's
 * maintenance) or on the caller of {@link #cleanUp()}.
 */
public final class MemoryTier implements CacheTier {
  /** Estimated heap per entry beyond its payload: key objects, array header, Caffeine node. */
  public static final int ENTRY_OVERHEAD_BYTES = 128;

  private final long maximumBytes;
  private final StatsCounter stats;
  private final Cache<CacheKey, byte[]> cache;
  private volatile boolean closed;

  /**
   * @param maximumBytes the bound, in heap bytes (payload plus per-entry overhead); positive
   * @param executor runs Caffeine's maintenance (evictions); {@code Runnable::run} runs it inline
   * @param stats receives this tier's events
   */
  public MemoryTier(long maximumBytes, Executor executor, StatsCounter stats) {
    requireNonNull(executor, "executor is null");
    this.stats = requireNonNull(stats, "stats is null");
    if (maximumBytes <= 0) {
      throw new IllegalArgumentException(
          "Cannot create memory cache tier: maximum size must be positive but is "
              + maximumBytes
              + " bytes (disable the tier instead)");
    }
    this.maximumBytes = maximumBytes;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(maximumBytes)
            .weigher((CacheKey key, byte[] bytes) -> weight(bytes.length))
            .executor(executor)
            // The eviction listener runs inside the eviction itself, so counts are exact.
            .evictionListener(
                (CacheKey key, byte[] bytes, RemovalCause cause) -> {
                  if (bytes != null) {
                    stats.recordEviction(weight(bytes.length));
                  }
                })
            .build();
  }

  /** The weight of an entry with a payload of {@code length} bytes, saturating at int range. */
  public static int weight(int length) {
    return (int) Math.min(Integer.MAX_VALUE, (long) length + ENTRY_OVERHEAD_BYTES);
  }

  @Override
  public String name() {
    return "memory";
  }

  @Override
  public Optional<byte[]> get(CacheKey key) {
    requireNonNull(key, "key is null");
    checkOpen(key);
    byte[] bytes = cache.getIfPresent(key);
    if (bytes == null) {
      stats.recordMiss();
      return Optional.empty();
    }
    stats.recordHit(bytes.length);
    return Optional.of(bytes);
  }

  @Override
  public Optional<byte[]> getQuietly(CacheKey key) {
    requireNonNull(key, "key is null");
    checkOpen(key);
    return Optional.ofNullable(cache.policy().getIfPresentQuietly(key));
  }

  @Override
  public void put(CacheKey key, byte[] bytes) {
    requireNonNull(key, "key is null");
    requireNonNull(bytes, "bytes is null");
    checkOpen(key);
    int weight = weight(bytes.length);
    if (weight > maximumBytes) {
      // Caffeine would admit and immediately evict it, pushing out everything else on the way.
      return;
    }
    cache.put(key, bytes);
    stats.recordStore(weight);
  }

  @Override
  public void invalidate(CacheKey key) {
    requireNonNull(key, "key is null");
    cache.invalidate(key);
  }

  @Override
  public void invalidateAll() {
    cache.invalidateAll();
  }

  @Override
  public long weightedSize() {
    return cache.policy().eviction().orElseThrow().weightedSize().orElse(0);
  }

  @Override
  public long maximumWeight() {
    return maximumBytes;
  }

  @Override
  public long entryCount() {
    return cache.estimatedSize();
  }

  @Override
  public void cleanUp() {
    cache.cleanUp();
  }

  @Override
  public StatsCounter statsCounter() {
    return stats;
  }

  /** Drops every entry; the heap is returned to the collector. */
  @Override
  public void close() {
    closed = true;
    cache.invalidateAll();
    cache.cleanUp();
  }

  private void checkOpen(CacheKey key) {
    if (closed) {
      throw new IllegalStateException("Cannot use memory cache tier for " + key + ": it is closed");
    }
  }

  @Override
  public String toString() {
    return "MemoryTier[" + weightedSize() + "/" + maximumBytes + " bytes]";
  }
}
