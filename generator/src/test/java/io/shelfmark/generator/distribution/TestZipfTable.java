package io.shelfmark.generator.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class TestZipfTable {
  @Test
  void probabilitiesFollowOneOverRank() {
    ZipfTable table = new ZipfTable(4, 1.0);
    double harmonic = 1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0;
    for (int k = 0; k < 4; k++) {
      assertThat(table.probability(k)).isCloseTo(1 / (k + 1.0) / harmonic, within(1e-12));
    }
  }

  @Test
  void samplesMapUniformIntervalsToRanks() {
    ZipfTable table = new ZipfTable(3, 0.0);
    assertThat(table.sample(0.0)).isEqualTo(0);
    assertThat(table.sample(0.3333)).isEqualTo(0);
    assertThat(table.sample(1 / 3.0 + 1e-9)).isEqualTo(1);
    assertThat(table.sample(0.6667)).isEqualTo(2);
    assertThat(table.sample(Math.nextDown(1.0))).isEqualTo(2);
  }

  @Test
  void empiricalFrequenciesMatch() {
    ZipfTable table = new ZipfTable(50, 1.0);
    RandomStream random = new RandomStream(7);
    int[] counts = new int[50];
    int draws = 200_000;
    for (int i = 0; i < draws; i++) {
      counts[table.sample(random.nextDouble())]++;
    }
    for (int k : new int[] {0, 1, 9, 49}) {
      assertThat(counts[k] / (double) draws)
          .as("rank %d", k)
          .isCloseTo(table.probability(k), within(0.1 * table.probability(k) + 0.001));
    }
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new ZipfTable(0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot create Zipf table: size is 0 (need >= 1)");
    assertThatThrownBy(() -> new ZipfTable(3, Double.NaN))
        .hasMessage("Cannot create Zipf table: exponent is NaN (need a finite value >= 0)");
  }
}
