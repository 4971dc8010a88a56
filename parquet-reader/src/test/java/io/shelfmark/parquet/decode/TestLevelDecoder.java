package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.format.Encoding;
import org.junit.jupiter.api.Test;

/**
 * The no-nulls shortcut for definition levels: recognised only for levels that are all the maximum,
 * exactly {@code count} of them, in repeated runs; everything else is left to the full decoder.
 */
class TestLevelDecoder {
  @Test
  void levelsAllAtTheMaximumAreRecognisedAsWrittenByParquetJava() throws IOException {
    for (int maxLevel : new int[] {1, 2, 3, 255, 256}) {
      int[] levels = new int[70_000];
      Arrays.fill(levels, maxLevel);
      byte[] encoded =
          TestRleBitPackedDecoder.encode(levels, RleBitPackedDecoder.bitWidth(maxLevel));
      assertThat(LevelDecoder.allAt(encoded, 0, encoded.length, maxLevel, levels.length))
          .as("max level %d", maxLevel)
          .isTrue();
      // Not for another count or another level.
      assertThat(LevelDecoder.allAt(encoded, 0, encoded.length, maxLevel, levels.length - 1))
          .isFalse();
      assertThat(LevelDecoder.allAt(encoded, 0, encoded.length, maxLevel, levels.length + 1))
          .isFalse();
      assertThat(LevelDecoder.allAt(encoded, 0, encoded.length, maxLevel + 1, levels.length))
          .isFalse();
    }
  }

  @Test
  void oneNullAnywhereOrACutOffRunIsLeftToTheDecoder() throws IOException {
    for (int nullAt : new int[] {0, 3, 7, 8, 9, 12_345, 69_999}) {
      int[] levels = new int[70_000];
      Arrays.fill(levels, 1);
      levels[nullAt] = 0;
      byte[] encoded = TestRleBitPackedDecoder.encode(levels, 1);
      assertThat(LevelDecoder.allAt(encoded, 0, encoded.length, 1, levels.length))
          .as("null at %d", nullAt)
          .isFalse();
    }
    int[] levels = new int[1_000];
    Arrays.fill(levels, 1);
    byte[] encoded = TestRleBitPackedDecoder.encode(levels, 1);
    assertThat(LevelDecoder.allAt(encoded, 0, encoded.length - 1, 1, levels.length)).isFalse();
    assertThat(LevelDecoder.allAt(encoded, 0, 0, 1, levels.length)).isFalse();
    assertThat(LevelDecoder.allAt(encoded, 0, 0, 1, 0)).isTrue();
  }

  @Test
  void severalRepeatedRunsAndTheV1LengthPrefix() {
    // Two hand-written RLE runs of 1 (3 + 5 values), then the same behind v1's 4-byte length.
    byte[] runs = {(byte) (3 << 1), 1, (byte) (5 << 1), 1};
    assertThat(LevelDecoder.allAt(runs, 0, runs.length, 1, 8)).isTrue();
    byte[] page = new byte[4 + runs.length + 3];
    page[0] = (byte) runs.length;
    System.arraycopy(runs, 0, page, 4, runs.length);
    assertThat(LevelDecoder.pastV1LevelsAllAt(Encoding.RLE, page, 0, page.length, 1, 8))
        .isEqualTo(4 + runs.length);
    assertThat(LevelDecoder.pastV1LevelsAllAt(Encoding.BIT_PACKED, page, 0, page.length, 1, 8))
        .isEqualTo(-1);
    // A bit-packed run of eight 1s (header 0b11, one byte 0xFF) is decoded the long way.
    byte[] packed = {3, (byte) 0xFF};
    assertThat(LevelDecoder.allAt(packed, 0, packed.length, 1, 8)).isFalse();
  }
}
