package io.shelfmark.cli.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestPercentile {
  @Test
  void nearestRank() {
    long[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertThat(Percentile.nearestRank(ten, 50)).isEqualTo(5);
    assertThat(Percentile.nearestRank(ten, 95)).isEqualTo(10);
    assertThat(Percentile.nearestRank(ten, 99)).isEqualTo(10);
    assertThat(Percentile.nearestRank(ten, 10)).isEqualTo(1);
    long[] twenty = new long[20];
    for (int i = 0; i < 20; i++) {
      twenty[i] = i + 1;
    }
    assertThat(Percentile.nearestRank(twenty, 95)).isEqualTo(19);
    assertThat(Percentile.nearestRank(new long[] {7}, 99)).isEqualTo(7);
  }

  @Test
  void hotSummaryLeavesOutTheFirstRun() {
    long[] runs = {900_000_000L, 5_000_000, 3_000_000, 4_000_000, 6_000_000};
    LatencySummary summary = LatencySummary.ofNanos(runs);
    assertThat(summary.runs()).isEqualTo(5);
    assertThat(summary.firstMs()).isEqualTo(900.0);
    assertThat(summary.medianMs()).isEqualTo(4.0);
    assertThat(summary.p95Ms()).isEqualTo(6.0);
    assertThat(summary.minMs()).isEqualTo(3.0);
    assertThat(summary.maxMs()).isEqualTo(6.0);
  }

  @Test
  void refusesWhatHasNoPercentile() {
    assertThatThrownBy(() -> Percentile.nearestRank(new long[0], 50))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot take a percentile of no values");
    assertThatThrownBy(() -> Percentile.nearestRank(new long[] {1}, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot take percentile 0.0 (use 0 < p <= 100)");
    assertThatThrownBy(() -> LatencySummary.ofNanos(new long[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot summarise 1 runs (need at least 2: run 1 is excluded)");
  }
}
