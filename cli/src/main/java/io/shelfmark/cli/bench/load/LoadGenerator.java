package io.shelfmark.cli.bench.load;

import static java.util.Objects.requireNonNull;

import com.sun.management.OperatingSystemMXBean;
import io.shelfmark.cli.bench.report.Percentile;
import io.shelfmark.cli.bench.report.QpsStep;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop load generator: queries are scheduled at a fixed rate whatever the answers do
 * (request i is due at {@code start + i / qps}), sent from a pool of its own threads, and each
 * latency is measured from the request's <em>intended</em> start, so a stalled server shows as
 * latency rather than as fewer requests (no coordinated omission).
 *
 * <p>When {@code maxInFlight} requests are outstanding a due request is not sent and counts as
 * dropped: the step then reports a lower achieved rate instead of an unbounded queue.
 *
 * <p>Lifecycle: construct, {@link #run} any number of times (one at a time), {@link #close}. The
 * scheduling runs on the caller's thread.
 */
public final class LoadGenerator implements AutoCloseable {
  /** One query; returns whether it was answered without error. Called from many threads. */
  @FunctionalInterface
  public interface Call {
    boolean call() throws Exception;
  }

  private static final long FAILED = -1;
  private static final long DROPPED = -2;

  private final ExecutorService pool;
  private final int maxInFlight;
  private final Duration drainTimeout;

  /**
   * @param threads the pool's threads: the most requests that can be in flight at once
   * @param drainTimeout how long a step waits for its last answers before counting them failed
   */
  public LoadGenerator(int threads, Duration drainTimeout) {
    if (threads < 1) {
      throw new IllegalArgumentException(
          "Cannot start load generator with " + threads + " threads (need at least 1)");
    }
    this.drainTimeout = requireNonNull(drainTimeout, "drainTimeout is null");
    this.maxInFlight = threads;
    AtomicInteger ids = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread thread = new Thread(r, "bench-load-" + ids.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Runs {@code call} at {@code targetQps} for {@code duration} and summarises the step. */
  public QpsStep run(Call call, double targetQps, Duration duration) throws InterruptedException {
    requireNonNull(call, "call is null");
    requireNonNull(duration, "duration is null");
    if (!(targetQps > 0)) {
      throw new IllegalArgumentException("Cannot run at " + targetQps + " QPS (need more than 0)");
    }
    int count = (int) Math.max(1, Math.round(targetQps * duration.toNanos() / 1e9));
    long period = Math.round(1e9 / targetQps);
    AtomicLongArray latencies = new AtomicLongArray(count);
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicLong lastEnd = new AtomicLong();
    long cpuBefore = processCpuNanos();
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long intended = start + i * period;
      waitUntil(intended);
      if (inFlight.get() >= maxInFlight) {
        latencies.set(i, DROPPED);
        done.incrementAndGet();
        continue;
      }
      inFlight.incrementAndGet();
      int slot = i;
      pool.execute(
          () -> {
            boolean ok;
            try {
              ok = call.call();
            } catch (Exception e) {
              ok = false;
            }
            long end = System.nanoTime();
            latencies.set(slot, ok ? end - intended : FAILED);
            lastEnd.accumulateAndGet(end, Math::max);
            inFlight.decrementAndGet();
            done.incrementAndGet();
          });
    }
    long deadline = System.nanoTime() + drainTimeout.toNanos();
    while (done.get() < count && System.nanoTime() < deadline) {
      LockSupport.parkNanos(1_000_000);
    }
    long end = Math.max(lastEnd.get(), start + count * period);
    long cpu = processCpuNanos() - cpuBefore;
    // Slots still pending at the deadline read 0 and count as failed.
    long[] snapshot = new long[count];
    for (int i = 0; i < count; i++) {
      snapshot[i] = latencies.get(i);
    }
    return summarise(targetQps, snapshot, count * period, end - start, cpu);
  }

  /**
   * @param scheduleNanos the span the requests were due in ({@code count / targetQps}): the
   *     achieved rate is the requests answered without error over it. Dividing by the wall time
   *     instead would count the last answers' latency as idle time, and a step that answered every
   *     request in time would report less than its target.
   * @param wallNanos from the first request's due time to the last answer: the CPU share's span
   */
  static QpsStep summarise(
      double targetQps, long[] latencies, long scheduleNanos, long wallNanos, long cpuNanos) {
    long failed = 0;
    long dropped = 0;
    long[] ok = new long[latencies.length];
    int completed = 0;
    double sum = 0;
    for (long latency : latencies) {
      if (latency == DROPPED) {
        dropped++;
      } else if (latency == FAILED || latency == 0) {
        failed++;
      } else {
        ok[completed++] = latency;
        sum += latency;
      }
    }
    long[] sorted = Arrays.copyOf(ok, completed);
    Arrays.sort(sorted);
    double seconds = Math.max(wallNanos, 1) / 1e9;
    double scheduled = Math.max(scheduleNanos, 1) / 1e9;
    int cpus = Runtime.getRuntime().availableProcessors();
    return new QpsStep(
        targetQps,
        completed / scheduled,
        latencies.length,
        completed,
        failed,
        dropped,
        completed == 0 ? Double.NaN : sum / completed / 1e6,
        completed == 0 ? Double.NaN : Percentile.nearestRank(sorted, 50) / 1e6,
        completed == 0 ? Double.NaN : Percentile.nearestRank(sorted, 99) / 1e6,
        cpuNanos < 0 ? Double.NaN : Math.min(1.0, cpuNanos / (seconds * 1e9 * cpus)));
  }

  private static void waitUntil(long nanoTime) {
    long wait;
    while ((wait = nanoTime - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
    }
  }

  /** CPU time of this process in nanoseconds, or -1 when the JVM cannot tell. */
  static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  @Override
  public void close() {
    pool.shutdownNow();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
