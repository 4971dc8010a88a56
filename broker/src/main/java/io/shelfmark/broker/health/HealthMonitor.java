package io.shelfmark.broker.health;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the services a node depends on answer: each {@link Probe} (object storage, the catalog)
 * runs in the background every {@code interval}, bounded by {@code timeout}, and {@link #checks}
 * returns the latest outcomes at once — a health request never waits for storage, and polling
 * {@code /health} adds no load on it. A failing probe's cause goes to the log; the report says only
 * that it failed, since {@code /health} is open to anyone who can reach the port and a cause may
 * name internal endpoints.
 *
 * <p>Lifecycle: {@link #start}, then {@link #close}. Thread safe.
 */
public final class HealthMonitor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HealthMonitor.class);

  /** How often probes run, and how long one may take before it counts as failed. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

  /** One dependency's check: returns when the dependency answered, throws when it did not. */
  public interface Probe {
    /** What is checked, e.g. {@code storage} or {@code catalog}. */
    String name();

    void check() throws Exception;

    static Probe of(String name, CheckedRunnable check) {
      requireNonNull(name, "name is null");
      requireNonNull(check, "check is null");
      return new Probe() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public void check() throws Exception {
          check.run();
        }
      };
    }
  }

  /** A check that may throw. */
  @FunctionalInterface
  public interface CheckedRunnable {
    void run() throws Exception;
  }

  /**
   * The latest outcome of one probe.
   *
   * @param name the probe's name
   * @param status {@code OK}, {@code FAILING} or {@code PENDING} (not run yet)
   * @param detail what failed, without internal addresses; empty when OK
   * @param checkedAt when the probe last finished; null while pending
   * @param latencyMs how long the last run took
   */
  public record Check(
      String name, String status, String detail, Instant checkedAt, long latencyMs) {
    public static final String OK = "OK";
    public static final String FAILING = "FAILING";
    public static final String PENDING = "PENDING";

    public Check {
      requireNonNull(name, "name is null");
      requireNonNull(status, "status is null");
      requireNonNull(detail, "detail is null");
    }

    public boolean ok() {
      return status.equals(OK);
    }
  }

  private final List<Probe> probes;
  private final Duration interval;
  private final Duration timeout;
  private final Clock clock;
  private final Map<String, Check> latest = new ConcurrentHashMap<>();
  private final ScheduledExecutorService scheduler;
  private final ExecutorService runner;

  public HealthMonitor(List<Probe> probes, Duration interval, Duration timeout, Clock clock) {
    this.probes = List.copyOf(requireNonNull(probes, "probes is null"));
    this.interval = requireNonNull(interval, "interval is null");
    this.timeout = requireNonNull(timeout, "timeout is null");
    this.clock = requireNonNull(clock, "clock is null");
    for (Probe probe : this.probes) {
      latest.put(probe.name(), new Check(probe.name(), Check.PENDING, "", null, 0));
    }
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("health-monitor").factory());
    // Virtual threads: a probe stuck in a connect does not hold up the next round.
    this.runner =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("health-probe-", 0).factory());
  }

  /** A monitor with no probes: every check passes. */
  public static HealthMonitor none() {
    return new HealthMonitor(List.of(), DEFAULT_INTERVAL, DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  /** Runs the probes now and then every interval. */
  public HealthMonitor start() {
    if (!probes.isEmpty()) {
      scheduler.scheduleWithFixedDelay(this::runAll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** The latest outcome of every probe, in the order they were given. */
  public List<Check> checks() {
    List<Check> checks = new ArrayList<>(probes.size());
    for (Probe probe : probes) {
      checks.add(latest.get(probe.name()));
    }
    return checks;
  }

  /** Whether every probe's latest run passed. */
  public boolean healthy() {
    for (Probe probe : probes) {
      if (!latest.get(probe.name()).ok()) {
        return false;
      }
    }
    return true;
  }

  private void runAll() {
    List<Future<?>> runs = new ArrayList<>(probes.size());
    List<Long> starts = new ArrayList<>(probes.size());
    for (Probe probe : probes) {
      starts.add(System.nanoTime());
      runs.add(
          runner.submit(
              () -> {
                probe.check();
                return null;
              }));
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    for (int i = 0; i < probes.size(); i++) {
      Probe probe = probes.get(i);
      Check check;
      try {
        runs.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        check = new Check(probe.name(), Check.OK, "", clock.instant(), elapsedMs(starts.get(i)));
      } catch (TimeoutException e) {
        runs.get(i).cancel(true);
        check =
            failing(probe, starts.get(i), "no answer within " + timeout.toMillis() + " ms", null);
      } catch (ExecutionException e) {
        check =
            failing(probe, starts.get(i), "the check failed (see the node's log)", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      Check previous = latest.put(probe.name(), check);
      if (check.ok() && previous != null && previous.status().equals(Check.FAILING)) {
        log.info("Health: {} answers again", probe.name());
      }
    }
  }

  private Check failing(Probe probe, long start, String detail, Throwable cause) {
    Check previous = latest.get(probe.name());
    // Logged when it starts failing, not at every round, so a long outage does not flood the log.
    if (previous == null || !previous.status().equals(Check.FAILING)) {
      log.warn("Health: {} is failing: {}", probe.name(), detail, cause);
    }
    return new Check(probe.name(), Check.FAILING, detail, clock.instant(), elapsedMs(start));
  }

  private static long elapsedMs(long start) {
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    runner.shutdownNow();
  }
}
