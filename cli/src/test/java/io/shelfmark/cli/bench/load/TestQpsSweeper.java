package io.shelfmark.cli.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.cli.bench.report.QpsStep;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TestQpsSweeper {
  private static final Duration FIVE_SECONDS = Duration.ofSeconds(5);

  @Test
  void lowRatesLastLongEnoughForTwoHundredQueries() {
    assertThat(QpsSweeper.stepDuration(FIVE_SECONDS, 5)).isEqualTo(Duration.ofSeconds(40));
    assertThat(QpsSweeper.stepDuration(FIVE_SECONDS, 10)).isEqualTo(Duration.ofSeconds(20));
    assertThat(QpsSweeper.stepDuration(FIVE_SECONDS, 35))
        .isEqualTo(Duration.ofNanos(5_714_285_715L));
  }

  @Test
  void highRatesKeepTheGivenDuration() {
    assertThat(QpsSweeper.stepDuration(FIVE_SECONDS, 40)).isEqualTo(FIVE_SECONDS);
    assertThat(QpsSweeper.stepDuration(FIVE_SECONDS, 2000)).isEqualTo(FIVE_SECONDS);
    assertThat(QpsSweeper.stepDuration(Duration.ofSeconds(60), 5))
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aStepIsSustainedOnlyWhenItKeptUpInTimeWithoutFailures() {
    assertThat(QpsSweeper.sustained(step(50, 50, 0, 99.9))).isTrue();
    assertThat(QpsSweeper.sustained(step(50, 45, 0, 50))).isTrue();
    assertThat(QpsSweeper.sustained(step(50, 44.9, 0, 50))).isFalse();
    assertThat(QpsSweeper.sustained(step(50, 50, 0, 100.1))).isFalse();
    assertThat(QpsSweeper.sustained(step(50, 50, 1, 50))).isFalse();
  }

  private static QpsStep step(double target, double achieved, long failed, double p99Ms) {
    return new QpsStep(target, achieved, 250, 250 - failed, failed, 0, 30, 30, p99Ms, 0.5);
  }
}
