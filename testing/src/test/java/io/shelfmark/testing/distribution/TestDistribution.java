package io.shelfmark.testing.distribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TestDistribution {
  private static final int SAMPLES = 20_000;

  @Test
  void sameSeedSameValues() {
    for (Distribution distribution :
        new Distribution[] {
          Distribution.uniform(-5, 5),
          Distribution.normal(100, 15),
          Distribution.exp(0.5),
          Distribution.point(3)
        }) {
      SplittableRandom first = new SplittableRandom(42);
      SplittableRandom second = new SplittableRandom(42);
      for (int i = 0; i < 100; i++) {
        assertThat(distribution.next(first)).isEqualTo(distribution.next(second));
      }
    }
  }

  @Test
  void uniformStaysInItsBoundsAndCoversThem() {
    Distribution uniform = Distribution.uniform(10, 20);
    SplittableRandom random = new SplittableRandom(1);
    double min = Double.MAX_VALUE;
    double max = -Double.MAX_VALUE;
    for (int i = 0; i < SAMPLES; i++) {
      double value = uniform.next(random);
      assertThat(value).isGreaterThanOrEqualTo(10).isLessThan(20);
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
    assertThat(min).isLessThan(10.1);
    assertThat(max).isGreaterThan(19.9);
    assertThat(Distribution.uniform(4, 4).next(random)).isEqualTo(4);
  }

  @Test
  void meansMatchTheParameters() {
    assertThat(mean(Distribution.normal(100, 15)))
        .isCloseTo(100, org.assertj.core.data.Offset.offset(1.0));
    assertThat(mean(Distribution.exp(0.5))).isCloseTo(2, org.assertj.core.data.Offset.offset(0.1));
    assertThat(mean(Distribution.point(-7))).isEqualTo(-7);
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 1000; i++) {
      assertThat(Distribution.exp(2).next(random)).isNotNegative();
    }
  }

  @Test
  void textRoundTrips() {
    for (String text : new String[] {"UNIFORM(0,100)", "NORMAL(0.5,2)", "EXP(0.01)", "POINT(-3)"}) {
      assertThat(Distribution.parse(text)).hasToString(text);
    }
    assertThat(Distribution.parse(" normal( 1 , 2 ) ")).isEqualTo(Distribution.normal(1, 2));
    assertThat(Distribution.parse("EXP(4)").kind()).isEqualTo(Distribution.Kind.EXP);
  }

  @Test
  void badTextAndParametersAreRefused() {
    assertThatThrownBy(() -> Distribution.parse("ZIPF(1.1)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot parse distribution: ZIPF(1.1) (expected UNIFORM(a,b), NORMAL(m,s), EXP(l) or"
                + " POINT(v))");
    assertThatThrownBy(() -> Distribution.parse("UNIFORM(1)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot parse distribution: UNIFORM(1) (expected");
    assertThatThrownBy(() -> Distribution.parse("POINT(x)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Cannot parse distribution: POINT(x) (expected");
    assertThatThrownBy(() -> Distribution.uniform(5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot make distribution UNIFORM(5.0,1.0): expected finite bounds with low <= high");
    assertThatThrownBy(() -> Distribution.exp(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make distribution EXP(0.0): expected rate > 0");
    assertThatThrownBy(() -> Distribution.normal(0, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot make distribution NORMAL(0.0,-1.0): expected a finite mean and a deviation of 0"
                + " or more");
  }

  private static double mean(Distribution distribution) {
    SplittableRandom random = new SplittableRandom(7);
    double sum = 0;
    for (int i = 0; i < SAMPLES; i++) {
      sum += distribution.next(random);
    }
    return sum / SAMPLES;
  }
}
