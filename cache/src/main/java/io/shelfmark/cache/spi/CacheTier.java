package io.shelfmark.cache.spi;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.stats.CacheStats;
import io.shelfmark.cache.stats.StatsCounter;
import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;

/**
 * One level of the tiered cache: a bounded map from {@link CacheKey} to the range's bytes.
 * Implementations: {@code MemoryTier} (Caffeine, bounded by bytes) and {@code DiskTier} (files in a
 * directory, bounded by bytes, checksummed, surviving restarts).
 *
 * <p>Lifecycle: a tier is open when constructed (a disk tier locks and indexes its directory in its
 * factory). It is then used concurrently until {@link #close()}, after which lookups and stores
 * fail with {@link IllegalStateException}. Closing twice is harmless.
 *
 * <p>Thread safety: every method is safe to call from many threads at once. A tier does not
 * coalesce concurrent misses; the tiered cache above it does.
 *
 * <p>Failure model: a tier is an optimisation, so its own trouble never fails a read. A lookup that
 * meets a corrupt entry drops it and reports a miss ({@link StatsCounter#recordCorruption()}); a
 * store that cannot be written is skipped ({@link StatsCounter#recordIoError()}).
 *
 * <p>Ownership of bytes: arrays passed to {@link #put} and returned by {@link #get} may be shared
 * with other callers and must never be modified.
 *
 * <p>Bound: {@link #weightedSize()} may exceed {@link #maximumWeight()} briefly while eviction is
 * pending; after {@link #cleanUp()} returns it is within the bound.
 */
public interface CacheTier extends Closeable {

  /** A short name for statistics and logs: {@code memory}, {@code disk}. */
  String name();

  /** Returns the bytes stored under {@code key}, recording a hit or a miss. */
  Optional<byte[]> get(CacheKey key);

  /**
   * Returns the bytes stored under {@code key} without recording a hit or a miss and without
   * counting as a use for eviction. For re-checking after another request may have filled the
   * entry, so that one request is not counted twice.
   */
  Optional<byte[]> getQuietly(CacheKey key);

  /**
   * Stores {@code bytes} under {@code key}, replacing any entry. The tier may decline, without
   * error, an entry larger than its whole bound.
   */
  void put(CacheKey key, byte[] bytes);

  /** Removes the entry for {@code key}, if any. */
  void invalidate(CacheKey key);

  /**
   * Removes every entry. Entries stored concurrently may survive; callers use it when nothing else
   * writes (for example after a node's warm-up, before it reports ready).
   */
  void invalidateAll();

  /** Bytes currently counted against the bound. */
  long weightedSize();

  /** The bound in bytes. */
  long maximumWeight();

  /** Entries currently held; an estimate while maintenance is pending. */
  long entryCount();

  /** Runs pending maintenance (evictions) now, on the calling thread. */
  void cleanUp();

  /**
   * The counter this tier records its lookups, stores and evictions into. The tiered cache records
   * into it too when it fills a miss of this tier (loads), so one snapshot describes the tier.
   */
  StatsCounter statsCounter();

  /** A snapshot of {@link #statsCounter()}. */
  default CacheStats stats() {
    return statsCounter().snapshot();
  }

  /** Releases the tier's resources (for a disk tier: its directory lock). */
  @Override
  void close() throws IOException;

  /**
   * A tier that holds nothing: every lookup misses without being counted, every store is dropped.
   * Stands in for a tier the configuration leaves out, so the tiered cache needs no special cases.
   */
  static CacheTier disabled(String name) {
    return new DisabledCacheTier(name);
  }
}
