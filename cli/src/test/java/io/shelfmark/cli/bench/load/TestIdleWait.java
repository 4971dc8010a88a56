package io.shelfmark.cli.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** On fake clocks: the wait ends at the first idle window, or at its limit. */
class TestIdleWait {
  private final AtomicLong wall = new AtomicLong();
  private final AtomicLong cpu = new AtomicLong();

  /** Each window burns the next share of both cores from {@code shares}, then the last one. */
  private IdleWait busy(double... shares) {
    int[] window = {0};
    return new IdleWait(
        cpu::get,
        wall::get,
        duration -> {
          double share = shares[Math.min(window[0]++, shares.length - 1)];
          wall.addAndGet(duration.toNanos());
          cpu.addAndGet((long) (share * duration.toNanos() * 2));
        },
        2);
  }

  @Test
  void returnsAtTheFirstIdleWindow() throws InterruptedException {
    // Two busy windows (60% and 30% of both cores), then 5%: three windows waited.
    Duration waited = busy(0.6, 0.3, 0.05).await(Duration.ofSeconds(30));
    assertThat(waited).isEqualTo(IdleWait.WINDOW.multipliedBy(3));
  }

  @Test
  void givesUpAtItsLimitOnABusyProcess() throws InterruptedException {
    Duration waited = busy(0.9).await(Duration.ofSeconds(2));
    assertThat(waited).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void returnsAtOnceWithoutACpuClock() throws InterruptedException {
    IdleWait blind =
        new IdleWait(
            () -> -1,
            wall::get,
            duration -> {
              throw new AssertionError("must not wait");
            },
            2);
    assertThat(blind.await(Duration.ofSeconds(30))).isZero();
  }
}
