package io.shelfmark.cache.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TestCacheStats {
  @Test
  void concurrentCounterCountsEveryEvent() {
    StatsCounter counter = StatsCounter.concurrent();
    counter.recordHit(100);
    counter.recordHit(50);
    counter.recordMiss();
    counter.recordCoalesced();
    counter.recordStore(300);
    counter.recordEviction(200);
    counter.recordLoadSuccess(40, 1_000);
    counter.recordLoadFailure(3_000);
    counter.recordCorruption();
    counter.recordIoError();
    assertThat(counter.snapshot())
        .isEqualTo(new CacheStats(2, 1, 1, 150, 1, 300, 1, 200, 1, 1, 40, 4_000, 1, 1));
    CacheStats stats = counter.snapshot();
    assertThat(stats.requestCount()).isEqualTo(4);
    assertThat(stats.hitRate()).isEqualTo(0.5);
    assertThat(stats.loadCount()).isEqualTo(2);
    assertThat(stats.averageLoadNanos()).isEqualTo(2_000.0);
  }

  @Test
  void concurrentCounterLosesNothingUnderContention() throws InterruptedException {
    StatsCounter counter = StatsCounter.concurrent();
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(
          Thread.ofPlatform()
              .start(
                  () -> {
                    awaitUninterruptibly(start);
                    for (int i = 0; i < 10_000; i++) {
                      counter.recordHit(3);
                    }
                  }));
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    assertThat(counter.snapshot().hitCount()).isEqualTo(40_000);
    assertThat(counter.snapshot().bytesServed()).isEqualTo(120_000);
  }

  @Test
  void disabledCounterRecordsNothing() {
    StatsCounter counter = StatsCounter.disabled();
    counter.recordHit(100);
    counter.recordMiss();
    counter.recordLoadSuccess(10, 10);
    assertThat(counter.snapshot()).isEqualTo(CacheStats.empty());
  }

  @Test
  void emptyStatsHaveNeutralRates() {
    assertThat(CacheStats.empty().hitRate()).isEqualTo(1.0);
    assertThat(CacheStats.empty().averageLoadNanos()).isEqualTo(0.0);
  }

  @Test
  void minusAndPlus() {
    CacheStats earlier = new CacheStats(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    CacheStats later = new CacheStats(2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28);
    assertThat(later.minus(earlier)).isEqualTo(earlier);
    assertThat(earlier.plus(earlier)).isEqualTo(later);
    // Readings passed in the wrong order clamp to zero rather than go negative.
    assertThat(earlier.minus(later)).isEqualTo(CacheStats.empty());
  }

  @Test
  void rejectsNegativeCounters() {
    assertThatThrownBy(() -> new CacheStats(0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot create cache statistics: negative counter in"
                + " [0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]");
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
