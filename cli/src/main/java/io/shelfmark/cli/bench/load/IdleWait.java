package io.shelfmark.cli.bench.load;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Waits until this process is nearly idle before a sweep starts: the work an overloaded step leaves
 * behind (garbage collection, compilation, caches settling) must not land in the next query's first
 * steps. In the 15:44 run of 2026-11-22, Q1's sweep ended on a 1,500-QPS step at 98% CPU, and Q2's
 * first step, at 5 QPS, then used 60% of both cores and failed with a p99 of 247 ms, where a
 * previous run had held 50 QPS.
 *
 * <p>Idle: process CPU below {@link #IDLE_SHARE} of all cores over one {@link #WINDOW}.
 */
final class IdleWait {
  static final Duration WINDOW = Duration.ofMillis(500);
  static final double IDLE_SHARE = 0.10;

  private final LongSupplier cpuNanos;
  private final LongSupplier wallNanos;
  private final Sleeper sleeper;
  private final int cores;

  /** Pauses the calling thread; a seam for tests. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(Duration duration) throws InterruptedException;
  }

  IdleWait(LongSupplier cpuNanos, LongSupplier wallNanos, Sleeper sleeper, int cores) {
    this.cpuNanos = requireNonNull(cpuNanos, "cpuNanos is null");
    this.wallNanos = requireNonNull(wallNanos, "wallNanos is null");
    this.sleeper = requireNonNull(sleeper, "sleeper is null");
    this.cores = cores;
  }

  /** This process, on its own CPU clock. */
  static IdleWait forThisProcess() {
    return new IdleWait(
        LoadGenerator::processCpuNanos,
        System::nanoTime,
        duration -> Thread.sleep(duration),
        Runtime.getRuntime().availableProcessors());
  }

  /**
   * Returns once a window was idle, or after {@code limit}; how long it waited. Returns at once
   * when the process CPU time cannot be read.
   */
  Duration await(Duration limit) throws InterruptedException {
    long start = wallNanos.getAsLong();
    long deadline = start + limit.toNanos();
    while (wallNanos.getAsLong() < deadline) {
      long cpuBefore = cpuNanos.getAsLong();
      long wallBefore = wallNanos.getAsLong();
      if (cpuBefore < 0) {
        break;
      }
      sleeper.sleep(WINDOW);
      long cpu = cpuNanos.getAsLong() - cpuBefore;
      long wall = wallNanos.getAsLong() - wallBefore;
      if (wall > 0 && cpu < IDLE_SHARE * wall * cores) {
        break;
      }
    }
    return Duration.ofNanos(wallNanos.getAsLong() - start);
  }
}
