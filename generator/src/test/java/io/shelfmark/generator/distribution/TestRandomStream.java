package io.shelfmark.generator.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TestRandomStream {
  @Test
  void matchesSplitMix64AsSpecifiedBySplittableRandom() {
    // SplittableRandom(seed).nextLong() is specified to be SplitMix64 with the golden gamma.
    SplittableRandom reference = new SplittableRandom(12345);
    RandomStream stream = new RandomStream(12345);
    for (int i = 0; i < 1000; i++) {
      assertThat(stream.nextLong()).isEqualTo(reference.nextLong());
    }
  }

  @Test
  void resetRestartsTheStream() {
    RandomStream stream = new RandomStream(99);
    long first = stream.nextLong();
    stream.nextLong();
    stream.reset(99);
    assertThat(stream.nextLong()).isEqualTo(first);
  }

  @Test
  void derivedValuesHaveTheirDistributions() {
    RandomStream stream = new RandomStream(1);
    int n = 200_000;
    double exponentialSum = 0;
    double gaussianSum = 0;
    double gaussianSquares = 0;
    int[] buckets = new int[10];
    for (int i = 0; i < n; i++) {
      double exponential = stream.nextExponential(100);
      double gaussian = stream.nextGaussian(50, 15);
      assertThat(exponential).isFinite().isNotNegative();
      assertThat(gaussian).isFinite();
      exponentialSum += exponential;
      gaussianSum += gaussian;
      gaussianSquares += gaussian * gaussian;
      buckets[stream.nextInt(10)]++;
    }
    assertThat(exponentialSum / n).isCloseTo(100, within(1.5));
    double mean = gaussianSum / n;
    assertThat(mean).isCloseTo(50, within(0.2));
    assertThat(Math.sqrt(gaussianSquares / n - mean * mean)).isCloseTo(15, within(0.2));
    for (int bucket : buckets) {
      assertThat(bucket).isBetween(n / 10 - 1000, n / 10 + 1000);
    }
  }

  @Test
  void rejectsNonPositiveBound() {
    assertThatThrownBy(() -> new RandomStream(1).nextInt(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot draw a bounded int: bound is 0");
  }
}
