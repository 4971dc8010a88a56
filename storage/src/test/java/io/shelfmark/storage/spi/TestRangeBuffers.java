package io.shelfmark.storage.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TestRangeBuffers {
  @Test
  void piecesHoldTheRangeInOrder() throws IOException {
    byte[] range = new byte[25];
    for (int i = 0; i < range.length; i++) {
      range[i] = (byte) i;
    }
    RangeBuffers into = RangeBuffers.pieces(5, 12, 8);
    ByteArrayInputStream in = new ByteArrayInputStream(range);
    int position = 0;
    // A read never crosses a piece's end: the caller sees each piece fill in turn.
    while (position < into.length()) {
      int n = into.readFrom(in, position);
      assertThat(into.pieceAt(position + n - 1)).isEqualTo(into.pieceAt(position));
      position += n;
    }
    assertThat(into.readFrom(in, 24)).isEqualTo(-1);

    assertThat(into.length()).isEqualTo(25);
    assertThat(into.pieceCount()).isEqualTo(3);
    assertThat(into.pieceStart(2)).isEqualTo(17);
    assertThat(into.piece(1)).hasSize(12).startsWith((byte) 5).endsWith((byte) 16);
    assertThat(into.pieceAt(0)).isZero();
    assertThat(into.pieceAt(4)).isZero();
    assertThat(into.pieceAt(5)).isEqualTo(1);
    assertThat(into.pieceAt(24)).isEqualTo(2);
    byte[] across = new byte[10];
    into.copyTo(3, across, 0, 10);
    assertThat(across).containsExactly(3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
  }

  @Test
  void copyFromFillsEveryPieceAndChecksTheLength() {
    RangeBuffers into = RangeBuffers.pieces(2, 3);
    into.copyFrom(new byte[] {1, 2, 3, 4, 5});
    assertThat(into.piece(0)).containsExactly(1, 2);
    assertThat(into.piece(1)).containsExactly(3, 4, 5);
    assertThatThrownBy(() -> into.copyFrom(new byte[4]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot fill a range buffer of 5 bytes with 4 bytes");
  }

  @Test
  void badShapesAreRefused() {
    assertThatThrownBy(() -> RangeBuffers.pieces(4, 0))
        .hasMessage("Cannot make a range buffer with a piece of 0 bytes");
    assertThatThrownBy(() -> RangeBuffers.single(-1))
        .hasMessage("Cannot make a range buffer of -1 bytes");
    assertThat(RangeBuffers.single(0).length()).isZero();
    assertThatThrownBy(() -> RangeBuffers.single(3).pieceAt(3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }
}
