package io.shelfmark.sql.expression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class TestValueOrder {
  @Test
  void floatingPointTotalOrder() {
    assertThat(ValueOrder.compare(-0.0, 0.0)).isZero();
    assertThat(ValueOrder.compare(Double.NaN, Double.NaN)).isZero();
    assertThat(ValueOrder.compare(Double.NaN, Double.POSITIVE_INFINITY)).isPositive();
    assertThat(ValueOrder.compare(1.0, Double.NaN)).isNegative();
    assertThat(ValueOrder.compare(-0.0f, 0.0f)).isZero();
    assertThat(ValueOrder.compare(Float.NaN, 1.0f)).isPositive();
  }

  @Test
  void stringsByCodePoint() {
    // U+FF5E (a BMP character) sorts before U+1F600, though its UTF-16 unit is larger.
    assertThat(ValueOrder.compare("\uFF5E", "\uD83D\uDE00")).isNegative();
    assertThat("\uFF5E".compareTo("\uD83D\uDE00")).isPositive();
    assertThat(ValueOrder.compare("ab", "abc")).isNegative();
    assertThat(ValueOrder.compare("b", "abc")).isPositive();
    assertThat(ValueOrder.compare("B", "a")).isNegative();
  }

  @Test
  void numbersAndBooleans() {
    assertThat(ValueOrder.compare(new BigDecimal("1.50"), new BigDecimal("1.5"))).isZero();
    assertThat(ValueOrder.compare(Long.MIN_VALUE, 0L)).isNegative();
    assertThat(ValueOrder.compare(false, true)).isNegative();
  }

  @Test
  void mixedRepresentationsAreAProgrammingError() {
    assertThatThrownBy(() -> ValueOrder.compare(1, 1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot compare Integer with Long");
  }
}
