package io.shelfmark.storage.coalesce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TestByteRange {
  @Test
  void describesItsBounds() {
    ByteRange range = new ByteRange(100, 50);
    assertThat(range.end()).isEqualTo(150);
    assertThat(range).hasToString("[100, 150)");
    assertThat(range.contains(new ByteRange(100, 50))).isTrue();
    assertThat(range.contains(new ByteRange(120, 31))).isFalse();
    assertThat(ByteRange.between(100, 150)).isEqualTo(range);
    assertThat(new ByteRange(7, 0).isEmpty()).isTrue();
  }

  @Test
  void ordersByOffsetThenLength() {
    assertThat(new ByteRange(1, 9)).isLessThan(new ByteRange(2, 1));
    assertThat(new ByteRange(1, 1)).isLessThan(new ByteRange(1, 2));
  }

  @Test
  void rejectsImpossibleRanges() {
    assertThatThrownBy(() -> new ByteRange(-1, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make byte range: offset -1 < 0");
    assertThatThrownBy(() -> new ByteRange(3, -5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make byte range at 3: length -5 < 0");
    assertThatThrownBy(() -> new ByteRange(Long.MAX_VALUE - 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make byte range at 9223372036854775806: length 2 overflows a long");
    assertThatThrownBy(() -> ByteRange.between(10, 5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot make byte range: end 5 is before offset 10");
  }
}
