package io.shelfmark.broker.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestQueryAdmission {
  private static final Clock CLOCK = Clock.systemUTC();
  private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  private static QueryAdmission admission(int heavyRunning, int heavyQueued) {
    return new QueryAdmission(
        Map.of(
            QueryLane.CHEAP,
            new QueryAdmission.LaneLimits(1, 0),
            QueryLane.HEAVY,
            new QueryAdmission.LaneLimits(heavyRunning, heavyQueued)),
        CLOCK);
  }

  private static Instant in(Duration duration) {
    return CLOCK.instant().plus(duration);
  }

  @Test
  void refusesAtOnceBeyondTheRunningSlotsAndTheQueue() {
    QueryAdmission admission = admission(1, 1);
    QueryAdmission.Admitted running =
        admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false);
    CompletableFuture<QueryAdmission.Admitted> queued =
        CompletableFuture.supplyAsync(
            () -> admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false),
            threads);
    await().until(() -> admission.queued(QueryLane.HEAVY) == 1);

    long started = System.nanoTime();
    assertThatThrownBy(
            () -> admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false))
        .isInstanceOf(QueryAdmission.RejectedQueryException.class)
        .hasMessageContaining("runs 1 heavy queries and 1 more wait")
        .hasMessageContaining("query.heavy.max-running, query.heavy.max-queued");
    // Refused without waiting: the point is a fast answer the client can retry on.
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));

    // The queued one runs once the slot is freed; the lane is then full again.
    running.close();
    running.close(); // closing twice frees one slot only
    QueryAdmission.Admitted next = queued.join();
    assertThat(admission.running(QueryLane.HEAVY)).isEqualTo(1);
    next.close();
    assertThat(admission.running(QueryLane.HEAVY)).isZero();
  }

  @Test
  void aFullHeavyLaneLeavesTheCheapLaneFree() {
    QueryAdmission admission = admission(1, 0);
    QueryAdmission.Admitted heavy =
        admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false);
    assertThatThrownBy(
            () -> admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false))
        .isInstanceOf(QueryAdmission.RejectedQueryException.class);
    try (QueryAdmission.Admitted cheap =
        admission.admit(QueryLane.CHEAP, in(Duration.ofMinutes(1)), () -> false)) {
      assertThat(admission.running(QueryLane.CHEAP)).isEqualTo(1);
    }
    heavy.close();
  }

  @Test
  void aQueuedQueryTimesOutAtItsDeadline() {
    QueryAdmission admission = admission(1, 4);
    QueryAdmission.Admitted running =
        admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false);
    Duration timeout = Duration.ofMillis(300);
    long started = System.nanoTime();
    assertThatThrownBy(() -> admission.admit(QueryLane.HEAVY, in(timeout), () -> false))
        .isInstanceOf(QueryTimeoutException.class)
        .hasMessageContaining("passed while it was queued behind 1 running heavy queries");
    Duration waited = Duration.ofNanos(System.nanoTime() - started);
    // Not before the deadline; after it by at most the 10% + 100 ms a deadline is allowed (on a
    // loaded machine the wake-up itself can be late, so no tighter).
    assertThat(waited).isGreaterThanOrEqualTo(timeout.minusMillis(5));
    assertThat(waited).isLessThan(timeout.plus(timeout.dividedBy(10)).plusMillis(100));
    assertThat(admission.queued(QueryLane.HEAVY)).isZero();
    running.close();
  }

  @Test
  void aQueuedQueryStopsWaitingWhenItsClientCancels() {
    QueryAdmission admission = admission(1, 4);
    QueryAdmission.Admitted running =
        admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), () -> false);
    AtomicBoolean cancelled = new AtomicBoolean();
    CompletableFuture<QueryAdmission.Admitted> queued =
        CompletableFuture.supplyAsync(
            () -> admission.admit(QueryLane.HEAVY, in(Duration.ofMinutes(1)), cancelled::get),
            threads);
    await().until(() -> admission.queued(QueryLane.HEAVY) == 1);
    cancelled.set(true);
    await().atMost(Duration.ofSeconds(5)).until(queued::isDone);
    assertThat(queued).isCompletedExceptionally();
    assertThatThrownBy(queued::join).hasCauseInstanceOf(QueryCancelledException.class);
    assertThat(admission.queued(QueryLane.HEAVY)).isZero();
    running.close();
  }

  @Test
  void boundsAreValidated() {
    assertThatThrownBy(() -> new QueryAdmission.LaneLimits(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 running and 1 queued");
  }
}
