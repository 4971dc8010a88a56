package io.shelfmark.cli.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cli.bench.report.QpsStep;
import io.shelfmark.cli.bench.report.QpsSweep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestLoadGenerator {
  @Test
  void countsAddUpForATrivialTarget() throws InterruptedException {
    AtomicInteger calls = new AtomicInteger();
    try (LoadGenerator generator = new LoadGenerator(4, Duration.ofSeconds(10))) {
      QpsStep step = generator.run(() -> calls.incrementAndGet() > 0, 200, Duration.ofMillis(300));
      assertThat(step.issued()).isEqualTo(60);
      assertThat(step.completed() + step.failed() + step.dropped()).isEqualTo(step.issued());
      assertThat(calls.get()).isEqualTo(step.completed() + step.failed());
      assertThat(step.failed()).isZero();
      assertThat(step.targetQps()).isEqualTo(200);
      assertThat(step.achievedQps()).isPositive();
      assertThat(step.p99Ms()).isGreaterThanOrEqualTo(step.p50Ms());
    }
  }

  @Test
  void aStepThatAnswersEveryRequestAchievesItsTargetWhateverTheLatency() {
    // 40 requests due over 200 ms, each answered 150 ms after it was due: the last answer comes
    // 350 ms after the first was due, yet every request was answered, so the rate is the target.
    long[] latencies = new long[40];
    java.util.Arrays.fill(latencies, 150_000_000L);
    QpsStep step = LoadGenerator.summarise(200, latencies, 200_000_000L, 350_000_000L, 0);
    assertThat(step.achievedQps()).isEqualTo(200.0);
    assertThat(step.completed()).isEqualTo(40);
    // One failed answer of 40: 39 answered over the 200 ms schedule.
    latencies[7] = -1;
    assertThat(LoadGenerator.summarise(200, latencies, 200_000_000L, 350_000_000L, 0).achievedQps())
        .isEqualTo(195.0);
  }

  @Test
  void failuresAndExceptionsCountAsFailed() throws InterruptedException {
    AtomicInteger calls = new AtomicInteger();
    try (LoadGenerator generator = new LoadGenerator(2, Duration.ofSeconds(10))) {
      QpsStep step =
          generator.run(
              () -> {
                int n = calls.incrementAndGet();
                if (n % 5 == 0) {
                  throw new IllegalStateException("fails every fifth call");
                }
                return n % 5 != 1;
              },
              100,
              Duration.ofMillis(200));
      assertThat(step.issued()).isEqualTo(20);
      assertThat(step.dropped()).isZero();
      assertThat(step.completed()).isEqualTo(12);
      assertThat(step.failed()).isEqualTo(8);
    }
  }

  @Test
  void aSlowTargetMakesRequestsDroppedNotQueued() throws InterruptedException {
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    try (LoadGenerator generator = new LoadGenerator(1, Duration.ofSeconds(10))) {
      Thread releaser =
          Thread.ofPlatform()
              .start(
                  () -> {
                    // Let the scheduler pass every due time while the one thread is busy.
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000_000L);
                    release.countDown();
                  });
      QpsStep step =
          generator.run(
              () -> {
                release.await();
                return true;
              },
              100,
              Duration.ofMillis(100));
      releaser.join();
      assertThat(step.issued()).isEqualTo(10);
      assertThat(step.completed()).isEqualTo(1);
      assertThat(step.dropped()).isEqualTo(9);
    }
  }

  @Test
  void sweepStopsAtTheFirstStepThatDoesNotKeepUp() throws InterruptedException {
    try (LoadGenerator generator = new LoadGenerator(2, Duration.ofSeconds(10))) {
      QpsSweeper sweeper =
          new QpsSweeper(generator, List.of(50.0, 100.0, 200.0), Duration.ofMillis(200));
      List<QpsStep> seen = new ArrayList<>();
      AtomicInteger calls = new AtomicInteger();
      // Answers fail from the 16th call on: the second step (100 QPS) is the last.
      QpsSweep sweep =
          sweeper.sweep("Q1", "pinned", () -> calls.incrementAndGet() <= 15, seen::add);
      // Whether the first step kept up depends on the machine; the rules do not.
      assertThat(sweep.steps()).isEqualTo(seen).hasSizeBetween(1, 2);
      List<QpsStep> steps = sweep.steps();
      QpsStep last = steps.get(steps.size() - 1);
      assertThat(QpsSweeper.sustained(last)).isFalse();
      double best = 0;
      for (QpsStep step : steps.subList(0, steps.size() - 1)) {
        assertThat(QpsSweeper.sustained(step)).isTrue();
        best = Math.max(best, step.achievedQps());
      }
      assertThat(sweep.maxSustainedQps()).isEqualTo(best);
      if (steps.size() == 2) {
        assertThat(last.failed()).isEqualTo(15);
      }
    }
  }

  @Test
  void refusesNonsense() {
    assertThatThrownBy(() -> new LoadGenerator(0, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot start load generator with 0 threads (need at least 1)");
    try (LoadGenerator generator = new LoadGenerator(1, Duration.ofSeconds(1))) {
      assertThatThrownBy(() -> generator.run(() -> true, 0, Duration.ofMillis(10)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot run at 0.0 QPS (need more than 0)");
    }
  }
}
