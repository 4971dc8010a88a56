package io.shelfmark.cache.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.cache.stats.CacheStats;
import io.shelfmark.cache.stats.StatsCounter;
import io.shelfmark.storage.spi.Location;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class TestMemoryTier {
  private static final ObjectIdentity OBJECT =
      ObjectIdentity.immutable(Location.parse("s3://lake/t/data/file.parquet"), 1L << 40);

  @Test
  void storesAndFindsRanges() {
    MemoryTier tier = new MemoryTier(1 << 20, Runnable::run, StatsCounter.concurrent());
    CacheKey key = CacheKey.of(OBJECT, 4, 3);
    assertThat(tier.get(key)).isEmpty();
    tier.put(key, new byte[] {1, 2, 3});
    assertThat(tier.get(key))
        .hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(1, 2, 3));
    // Should miss: same object, overlapping but different range.
    assertThat(tier.get(CacheKey.of(OBJECT, 4, 2))).isEmpty();
    assertThat(tier.weightedSize()).isEqualTo(3 + MemoryTier.ENTRY_OVERHEAD_BYTES);
    assertThat(tier.stats())
        .isEqualTo(
            new CacheStats(
                1, 2, 0, 3, 1, 3 + MemoryTier.ENTRY_OVERHEAD_BYTES, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void quietLookupIsNotCounted() {
    MemoryTier tier = new MemoryTier(1 << 20, Runnable::run, StatsCounter.concurrent());
    CacheKey key = CacheKey.of(OBJECT, 0, 1);
    assertThat(tier.getQuietly(key)).isEmpty();
    tier.put(key, new byte[] {7});
    assertThat(tier.getQuietly(key)).isPresent();
    assertThat(tier.stats().requestCount()).isZero();
  }

  @Test
  void declinesEntryLargerThanTheWholeBound() {
    MemoryTier tier = new MemoryTier(1000, Runnable::run, StatsCounter.concurrent());
    tier.put(CacheKey.of(OBJECT, 0, 10), new byte[10]);
    tier.put(CacheKey.of(OBJECT, 0, 1000), new byte[1000]);
    assertThat(tier.entryCount()).isEqualTo(1);
    assertThat(tier.get(CacheKey.of(OBJECT, 0, 10))).isPresent();
    assertThat(tier.stats().storeCount()).isEqualTo(1);
  }

  @Test
  void byteBoundHoldsUnderConcurrentLoad() throws Exception {
    long bound = 256 << 10;
    StatsCounter stats = StatsCounter.concurrent();
    ExecutorService maintenance = Executors.newSingleThreadExecutor();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try {
      MemoryTier tier = new MemoryTier(bound, maintenance, stats);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<CacheKey>>> results = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        int seed = thread;
        results.add(
            writers.submit(
                () -> {
                  start.await();
                  SplittableRandom random = new SplittableRandom(seed);
                  List<CacheKey> written = new ArrayList<>();
                  for (int i = 0; i < 2_000; i++) {
                    // Unique keys per thread: offsets never collide across threads.
                    CacheKey key =
                        CacheKey.of(
                            OBJECT,
                            (long) seed << 32 | (long) i << 16,
                            100 + random.nextInt(5_000));
                    tier.put(key, new byte[key.length()]);
                    written.add(key);
                    tier.get(written.get(random.nextInt(written.size())));
                  }
                  return written;
                }));
      }
      start.countDown();
      List<CacheKey> all = new ArrayList<>();
      for (Future<List<CacheKey>> result : results) {
        all.addAll(result.get());
      }
      tier.cleanUp();

      assertThat(tier.weightedSize()).isLessThanOrEqualTo(bound);
      long present = 0;
      for (CacheKey key : all) {
        if (tier.getQuietly(key).isPresent()) {
          present += MemoryTier.weight(key.length());
        }
      }
      // The tier's own accounting matches what it actually holds.
      assertThat(present).isEqualTo(tier.weightedSize());
      CacheStats counted = tier.stats();
      assertThat(counted.storeCount()).isEqualTo(8_000);
      assertThat(counted.evictionCount()).isPositive();
      // Every key is new, so everything stored is either still held or was evicted.
      assertThat(counted.bytesStored() - counted.evictedBytes()).isEqualTo(tier.weightedSize());
    } finally {
      writers.shutdownNow();
      maintenance.shutdownNow();
    }
  }

  @Test
  void frequentlyReadEntrySurvivesAScan() {
    MemoryTier tier =
        new MemoryTier(100 * MemoryTier.weight(1_000), Runnable::run, StatsCounter.concurrent());
    // Fill the tier so that its frequency sketch is active, then make one entry hot.
    for (int i = 0; i < 100; i++) {
      tier.put(CacheKey.of(OBJECT, 1_000_000L + i * 1_000L, 1_000), new byte[1_000]);
    }
    CacheKey hot = CacheKey.of(OBJECT, 0, 1_000);
    tier.put(hot, new byte[1_000]);
    for (int i = 0; i < 20; i++) {
      tier.get(hot);
      tier.cleanUp();
    }
    // A scan of entries each read once must not push the hot one out.
    for (int i = 0; i < 1_000; i++) {
      tier.put(CacheKey.of(OBJECT, 10_000_000L + i * 1_000L, 1_000), new byte[1_000]);
    }
    tier.cleanUp();
    assertThat(tier.getQuietly(hot)).isPresent();
    assertThat(tier.weightedSize()).isLessThanOrEqualTo(tier.maximumWeight());
  }

  @Test
  void rejectsInvalidUse() {
    assertThatThrownBy(() -> new MemoryTier(0, Runnable::run, StatsCounter.disabled()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create memory cache tier: maximum size must be positive but is 0 bytes (disable"
                + " the tier instead)");
    MemoryTier tier = new MemoryTier(1000, Runnable::run, StatsCounter.disabled());
    tier.close();
    assertThatThrownBy(() -> tier.get(CacheKey.of(OBJECT, 0, 1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "Cannot use memory cache tier for s3://lake/t/data/file.parquet (1099511627776 bytes)[0,"
                + " 1): it is closed");
  }
}
