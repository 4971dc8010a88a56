package io.shelfmark.cli.bench.load;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.report.QpsStep;
import io.shelfmark.cli.bench.report.QpsSweep;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Steps a {@link LoadGenerator} through increasing target rates until saturation: the first step
 * whose achieved rate falls below {@value #KEEP_UP} of its target, or whose p99 passes {@value
 * #P99_LIMIT_MS} ms, is the last.
 *
 * <p>Each step lasts the given duration or as long as {@value #MIN_QUERIES_PER_STEP} queries take
 * at its rate, whichever is longer: a p99 over fewer than 100 answers is the slowest of them, so a
 * 5 s step at 5 QPS (25 answers) would fail on one slow query.
 */
public final class QpsSweeper {
  /** The rates tried, in order. */
  public static final List<Double> DEFAULT_TARGETS =
      List.of(
          5.0, 10.0, 20.0, 35.0, 50.0, 75.0, 100.0, 150.0, 200.0, 300.0, 400.0, 500.0, 750.0,
          1000.0, 1500.0, 2000.0);

  public static final double KEEP_UP = 0.9;
  public static final double P99_LIMIT_MS = 100;

  /** The fewest queries a step schedules, so that its p99 leaves out its two slowest answers. */
  public static final int MIN_QUERIES_PER_STEP = 200;

  /** The longest wait for an idle process before a query's sweep. */
  static final Duration SETTLE_LIMIT = Duration.ofSeconds(30);

  private final LoadGenerator generator;
  private final List<Double> targets;
  private final Duration stepDuration;
  private final IdleWait idle;

  public QpsSweeper(LoadGenerator generator, List<Double> targets, Duration stepDuration) {
    this(generator, targets, stepDuration, IdleWait.forThisProcess());
  }

  QpsSweeper(LoadGenerator generator, List<Double> targets, Duration stepDuration, IdleWait idle) {
    this.generator = requireNonNull(generator, "generator is null");
    this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
    this.stepDuration = requireNonNull(stepDuration, "stepDuration is null");
    this.idle = requireNonNull(idle, "idle is null");
  }

  /** Sweeps one query; {@code onStep} sees each step as it finishes (progress output). */
  public QpsSweep sweep(
      String query, String mode, LoadGenerator.Call call, Consumer<QpsStep> onStep)
      throws InterruptedException {
    List<QpsStep> steps = new ArrayList<>();
    double best = 0;
    // Each query starts on a quiet process, not in the wake of the previous query's last step.
    idle.await(SETTLE_LIMIT);
    for (double target : targets) {
      QpsStep step = generator.run(call, target, stepDuration(stepDuration, target));
      steps.add(step);
      onStep.accept(step);
      if (!sustained(step)) {
        break;
      }
      best = Math.max(best, step.achievedQps());
    }
    return new QpsSweep(query, mode, steps, best);
  }

  /**
   * How long a step at {@code targetQps} lasts: {@code minimum}, or long enough for {@value
   * #MIN_QUERIES_PER_STEP} queries.
   */
  static Duration stepDuration(Duration minimum, double targetQps) {
    Duration forQueries =
        Duration.ofNanos((long) Math.ceil(MIN_QUERIES_PER_STEP * 1e9 / targetQps));
    return forQueries.compareTo(minimum) > 0 ? forQueries : minimum;
  }

  /** Whether a step kept up with its target within the latency limit, without failures. */
  public static boolean sustained(QpsStep step) {
    return step.failed() == 0
        && step.achievedQps() >= KEEP_UP * step.targetQps()
        && step.p99Ms() <= P99_LIMIT_MS;
  }
}
