package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Bounds the queries a node runs at once: per {@link QueryLane}, at most {@code maxRunning} run and
 * at most {@code maxQueued} more wait, first come first served; a query beyond both is refused at
 * once ({@link RejectedQueryException}, answered TOO_MANY_QUERIES), never queued without bound.
 * Without it, 500 concurrent queries all started, shared the cores, and all timed out.
 *
 * <p>A queued query waits at most until its deadline (the wait counts against its timeout, so it
 * times out as it would have running) and stops waiting when its client cancels. Thread safe.
 */
public final class QueryAdmission {
  /** How often a waiting query looks at its cancellation flag. */
  private static final Duration CANCEL_POLL = Duration.ofMillis(50);

  private final Map<QueryLane, Lane> lanes = new EnumMap<>(QueryLane.class);
  private final Clock clock;

  /**
   * @param limits each lane's running and queued bounds
   */
  public QueryAdmission(Map<QueryLane, LaneLimits> limits, Clock clock) {
    requireNonNull(limits, "limits is null");
    this.clock = requireNonNull(clock, "clock is null");
    for (QueryLane lane : QueryLane.values()) {
      LaneLimits laneLimits = limits.get(lane);
      if (laneLimits == null) {
        throw new IllegalArgumentException("Cannot admit queries: no limits for lane " + lane);
      }
      lanes.put(lane, new Lane(lane, laneLimits));
    }
  }

  /** No bound: every query runs at once (for tests and embedders that bound queries otherwise). */
  public static QueryAdmission unbounded(Clock clock) {
    LaneLimits unbounded = new LaneLimits(Integer.MAX_VALUE, 0);
    return new QueryAdmission(
        Map.of(QueryLane.CHEAP, unbounded, QueryLane.HEAVY, unbounded), clock);
  }

  /**
   * A lane's bounds.
   *
   * @param maxRunning queries running at once, at least 1
   * @param maxQueued queries waiting for a running slot, at least 0
   */
  public record LaneLimits(int maxRunning, int maxQueued) {
    public LaneLimits {
      if (maxRunning < 1 || maxQueued < 0) {
        throw new IllegalArgumentException(
            "Cannot bound a lane to %d running and %d queued queries (at least 1 and 0)"
                .formatted(maxRunning, maxQueued));
      }
    }
  }

  /** A running slot; closing it lets the next queued query of its lane run. */
  public interface Admitted extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Takes a running slot in {@code lane}, waiting in its queue if none is free.
   *
   * @throws RejectedQueryException when the lane's slots and queue are all taken
   * @throws QueryTimeoutException when the deadline passes while queued
   * @throws QueryCancelledException when {@code cancelled} turns true while queued
   */
  public Admitted admit(QueryLane lane, Instant deadline, BooleanSupplier cancelled) {
    requireNonNull(lane, "lane is null");
    requireNonNull(deadline, "deadline is null");
    requireNonNull(cancelled, "cancelled is null");
    return lanes.get(lane).admit(deadline, cancelled);
  }

  /** Queries running in {@code lane} now. */
  public int running(QueryLane lane) {
    return lanes.get(lane).running();
  }

  /** Queries queued in {@code lane} now. */
  public int queued(QueryLane lane) {
    return lanes.get(lane).queued();
  }

  /** The query was refused: its lane's running slots and queue are all taken. */
  public static final class RejectedQueryException extends RuntimeException {
    RejectedQueryException(String message) {
      super(message);
    }
  }

  private final class Lane {
    private final QueryLane name;
    private final LaneLimits limits;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition freed = lock.newCondition();
    private int running;
    private int queued;

    Lane(QueryLane name, LaneLimits limits) {
      this.name = name;
      this.limits = limits;
    }

    Admitted admit(Instant deadline, BooleanSupplier cancelled) {
      lock.lock();
      try {
        if (running < limits.maxRunning() && queued == 0) {
          running++;
          return once();
        }
        if (queued >= limits.maxQueued()) {
          throw new RejectedQueryException(
              ("Cannot run the query now: the node runs %d %s queries and %d more wait, its limits"
                      + " (query.%s.max-running, query.%s.max-queued; retry later)")
                  .formatted(
                      running,
                      name.name().toLowerCase(Locale.ROOT),
                      queued,
                      name.name().toLowerCase(Locale.ROOT),
                      name.name().toLowerCase(Locale.ROOT)));
        }
        queued++;
        try {
          // Fair lock, and a queued query takes a freed slot only when none queued before it
          // still waits (signalAll wakes them all; the condition's order decides).
          while (running >= limits.maxRunning()) {
            if (cancelled.getAsBoolean()) {
              throw new QueryCancelledException(
                  "Cannot run the query: it was cancelled while queued");
            }
            long remaining = Duration.between(clock.instant(), deadline).toNanos();
            if (remaining <= 0) {
              throw new QueryTimeoutException(
                  ("Cannot run the query: its deadline %s passed while it was queued behind %d"
                          + " running %s queries (raise the timeout or retry later)")
                      .formatted(deadline, running, name.name().toLowerCase(Locale.ROOT)));
            }
            freed.awaitNanos(Math.min(remaining, CANCEL_POLL.toNanos()));
          }
          running++;
          return once();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new QueryCancelledException(
              "Cannot run the query: the thread was interrupted while it was queued", e);
        } finally {
          queued--;
        }
      } finally {
        lock.unlock();
      }
    }

    private Admitted once() {
      AtomicBoolean closed = new AtomicBoolean();
      return () -> {
        if (closed.compareAndSet(false, true)) {
          release();
        }
      };
    }

    private void release() {
      lock.lock();
      try {
        running--;
        freed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    int running() {
      lock.lock();
      try {
        return running;
      } finally {
        lock.unlock();
      }
    }

    int queued() {
      lock.lock();
      try {
        return queued;
      } finally {
        lock.unlock();
      }
    }
  }
}
