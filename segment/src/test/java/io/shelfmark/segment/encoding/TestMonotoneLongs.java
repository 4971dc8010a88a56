package io.shelfmark.segment.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestMonotoneLongs {
  @ParameterizedTest(name = "{0} values")
  @ValueSource(ints = {0, 1, 2, 127, 128, 129, 1000})
  void testRoundTripAndSearches(int count) throws CorruptSegmentException {
    long seed = 600 + count;
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[count];
    long value = Long.MIN_VALUE + random.nextLong(1000);
    for (int i = 0; i < count; i++) {
      // Mostly small gaps, sometimes none, once in a while a huge one across the sign.
      value +=
          switch (random.nextInt(10)) {
            case 0 -> 0;
            case 1 -> Long.MAX_VALUE / 64;
            default -> random.nextLong(1, 1000);
          };
      values[i] = value;
    }
    MonotoneLongs decoded = roundTrip(values);
    assertThat(decoded.count()).isEqualTo(count);
    for (int i = 0; i < count; i++) {
      assertThat(decoded.get(i)).as("seed %d, index %d", seed, i).isEqualTo(values[i]);
    }
    checkBlocks(decoded, values);
    for (int probe = 0; probe < 200 && count > 0; probe++) {
      long target =
          random.nextBoolean()
              ? values[random.nextInt(count)] + random.nextInt(3) - 1
              : random.nextLong();
      assertThat(decoded.lowerBound(target))
          .as("seed %d, lower bound of %d", seed, target)
          .isEqualTo(lowerBound(values, target));
      assertThat(decoded.upperBound(target))
          .as("seed %d, upper bound of %d", seed, target)
          .isEqualTo(
              lowerBound(values, target == Long.MAX_VALUE ? target : target + 1)
                  + (target == Long.MAX_VALUE ? countEqual(values, target) : 0));
    }
  }

  @ParameterizedTest(name = "{0}-bit gaps")
  @ValueSource(ints = {1, 7, 13, 31, 32, 33, 57, 63, 64})
  void testBlocksOfEveryGapWidthDecodeWhole(int width) throws CorruptSegmentException {
    SplittableRandom random = new SplittableRandom(900 + width);
    long[] values = new long[3 * MonotoneLongs.BLOCK + 5];
    long value = Long.MIN_VALUE;
    values[0] = value;
    for (int i = 1; i < values.length; i++) {
      // Gaps of at most `width` bits, one exactly that wide in each block (in the first block
      // only for the widest, which span the long range: a 64-bit gap is the unsigned distance
      // from Long.MIN_VALUE to Long.MAX_VALUE, after which only zero gaps fit).
      long widest = width == 64 ? -1L : (1L << width) - 1;
      boolean wide = width >= 62 ? i == 1 : i % MonotoneLongs.BLOCK == 1;
      long gap;
      if (wide) {
        gap = widest;
      } else if (width == 64) {
        gap = 0;
      } else {
        gap = random.nextLong(0, Math.min(widest, 1L << 50));
      }
      value += gap;
      values[i] = value;
    }
    checkBlocks(roundTrip(values), values);
  }

  /** Every block decoded whole equals the values, and each value read alone. */
  private static void checkBlocks(MonotoneLongs decoded, long[] values) {
    long[] block = new long[MonotoneLongs.BLOCK];
    for (int b = 0; b * MonotoneLongs.BLOCK < values.length; b++) {
      int n = decoded.decodeBlock(b, block);
      assertThat(n)
          .isEqualTo(Math.min(MonotoneLongs.BLOCK, values.length - b * MonotoneLongs.BLOCK));
      for (int i = 0; i < n; i++) {
        int index = b * MonotoneLongs.BLOCK + i;
        assertThat(block[i]).as("block %d, index %d", b, index).isEqualTo(values[index]);
        assertThat(decoded.get(index)).as("index %d", index).isEqualTo(values[index]);
      }
    }
  }

  private static int countEqual(long[] values, long target) {
    int count = 0;
    for (long value : values) {
      count += value == target ? 1 : 0;
    }
    return count;
  }

  private static int lowerBound(long[] values, long target) {
    int index = 0;
    while (index < values.length && values[index] < target) {
      index++;
    }
    return index;
  }

  @Test
  void testRunsOfEqualValuesTakeOnlyBlockHeads() throws CorruptSegmentException {
    long[] constant = new long[128 * 100];
    Arrays.fill(constant, 42);
    PartWriter out = new PartWriter();
    MonotoneLongs.write(out, constant, constant.length);
    // 100 blocks of a 13-byte head and no gap bits.
    assertThat(out.size()).isLessThan(100 * 13 + 10);
    assertThat(roundTrip(constant).indexOf(42)).isBetween(0, constant.length - 1);
    assertThat(roundTrip(constant).indexOf(43)).isEqualTo(-constant.length - 1);
  }

  @Test
  void testDecreasingInputIsRefused() {
    assertThatThrownBy(() -> MonotoneLongs.write(new PartWriter(), new long[] {1, 3, 2}, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot encode a decreasing sequence: value 2 is 2 after 3");
  }

  @Test
  void testTruncatedBytesAreCorrupt() {
    PartWriter out = new PartWriter();
    MonotoneLongs.write(out, new long[] {1, 2, 3, 400}, 4);
    byte[] bytes = out.toByteArray();
    assertThatThrownBy(
            () ->
                MonotoneLongs.read(
                    new PartReader(
                        "s",
                        "sorted[x]",
                        100,
                        ByteBuffer.wrap(bytes, 0, bytes.length - 3).slice())))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("(part sorted[x] at offset");
  }

  private static MonotoneLongs roundTrip(long[] values) throws CorruptSegmentException {
    PartWriter out = new PartWriter();
    MonotoneLongs.write(out, values, values.length);
    PartReader in = new PartReader("s", "p", 0, ByteBuffer.wrap(out.toByteArray()));
    MonotoneLongs decoded = MonotoneLongs.read(in);
    in.expectEnd();
    return decoded;
  }
}
