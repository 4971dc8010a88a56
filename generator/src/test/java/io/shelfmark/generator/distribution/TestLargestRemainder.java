package io.shelfmark.generator.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TestLargestRemainder {
  @Test
  void partsSumToTotalAndStayWithinOneOfTheExactShare() {
    double[] weights = {0.25, 0.1, 0.3333, 1e-9, 0.0, 0.3167};
    double sum = Arrays.stream(weights).sum();
    for (long total : new long[] {0, 1, 2, 7, 999, 1_000_000, 100_000_003, 12_200_000_000L}) {
      long[] counts = LargestRemainder.allocate(total, weights);
      assertThat(Arrays.stream(counts).sum()).as("total %d", total).isEqualTo(total);
      for (int i = 0; i < weights.length; i++) {
        double exact = total * weights[i] / sum;
        assertThat((double) counts[i])
            .as("bucket %d of %d", i, total)
            .isBetween(exact - 1, exact + 1);
      }
    }
  }

  @Test
  void leftoverRowsGoToLargestRemaindersThenLowerIndex() {
    assertThat(LargestRemainder.allocate(2, new double[] {1, 1, 1})).containsExactly(1, 1, 0);
    assertThat(LargestRemainder.allocate(1, new double[] {0.2, 0.45, 0.35}))
        .containsExactly(0, 1, 0);
    assertThat(LargestRemainder.allocate(10, new double[] {0, 3, 0})).containsExactly(0, 10, 0);
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> LargestRemainder.allocate(-1, new double[] {1}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot allocate rows: total is negative: -1");
    assertThatThrownBy(() -> LargestRemainder.allocate(1, new double[0]))
        .hasMessage("Cannot allocate rows: no buckets to allocate to");
    assertThatThrownBy(() -> LargestRemainder.allocate(1, new double[] {1, Double.NaN}))
        .hasMessage("Cannot allocate rows: weight 1 is NaN (weights must be >= 0)");
    assertThatThrownBy(() -> LargestRemainder.allocate(1, new double[] {-0.5}))
        .hasMessage("Cannot allocate rows: weight 0 is -0.5 (weights must be >= 0)");
    assertThatThrownBy(() -> LargestRemainder.allocate(3, new double[] {0, 0}))
        .hasMessage("Cannot allocate 3 rows: every weight is zero");
    assertThat(LargestRemainder.allocate(0, new double[] {0, 0})).containsExactly(0, 0);
  }
}
