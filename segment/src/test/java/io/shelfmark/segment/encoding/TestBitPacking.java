package io.shelfmark.segment.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TestBitPacking {
  @Test
  void testEveryWidthRoundTrips() {
    for (int width = 0; width <= 64; width++) {
      long seed = 700 + width;
      SplittableRandom random = new SplittableRandom(seed);
      int count = 1 + random.nextInt(300);
      long[] values = new long[count];
      long mask = width == 64 ? -1L : (1L << width) - 1;
      for (int i = 0; i < count; i++) {
        values[i] = random.nextLong() & mask;
      }
      values[count - 1] = mask; // the widest value
      PartWriter out = new PartWriter();
      BitPacking.writeLongs(out, values, 0, count, width);
      assertThat(out.size()).isEqualTo(BitPacking.wordCount(count, width) * 8);
      PackedLongs packed = new PackedLongs(ByteBuffer.wrap(out.toByteArray()), count, width);
      for (int i = 0; i < count; i++) {
        assertThat(packed.get(i))
            .as("seed %d, width %d, index %d", seed, width, i)
            .isEqualTo(values[i]);
      }
    }
  }

  @Test
  void testGapsWriteTheBytesOfTheirArray() {
    SplittableRandom random = new SplittableRandom(59);
    for (int width = 0; width <= 31; width++) {
      for (int count : new int[] {1, 2, 5, 33, 100}) {
        int[] docs = new int[count + 1];
        int[] gaps = new int[count - 1];
        docs[1] = random.nextInt(1000);
        for (int i = 1; i < count; i++) {
          gaps[i - 1] = width == 0 ? 0 : (int) random.nextLong(1L << (width - 1), 1L << width);
          docs[i + 1] = docs[i] + gaps[i - 1] + 1;
        }
        PartWriter expected = new PartWriter();
        BytePacking.write(expected, gaps, 0, gaps.length, width);
        PartWriter actual = new PartWriter();
        BytePacking.writeGaps(actual, docs, 1, count, width);
        assertThat(actual.toByteArray())
            .as("width %d, %d docs", width, count)
            .isEqualTo(expected.toByteArray());
      }
    }
  }

  @Test
  void testIntsAndBitWidth() {
    int[] ids = {0, 5, 17, 100_000, 3};
    PartWriter out = new PartWriter();
    BitPacking.writeInts(out, ids, ids.length, BitPacking.bitWidth(100_000));
    PackedLongs packed = new PackedLongs(ByteBuffer.wrap(out.toByteArray()), ids.length, 17);
    int[] read = new int[5];
    packed.getInts(0, 5, read, 0);
    assertThat(read).containsExactly(ids);
    assertThat(BitPacking.bitWidth(0)).isZero();
    assertThat(BitPacking.bitWidth(50)).isEqualTo(6);
    assertThat(BitPacking.bitWidth(-1L)).isEqualTo(64);
  }
}
