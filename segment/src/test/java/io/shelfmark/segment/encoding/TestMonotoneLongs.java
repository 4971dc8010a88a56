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
    // One scratch for every block, as a reader's cursor keeps it: words left from the block before
    // must not leak into the next.
    long[] words = new long[MonotoneLongs.BLOCK];
    Arrays.fill(words, -1L);
    for (int b = 0; b * MonotoneLongs.BLOCK < values.length; b++) {
      int n = b % 2 == 0 ? decoded.decodeBlock(b, block, words) : decoded.decodeBlock(b, block);
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

  @Test
  void testGapsNotStartingOnAWordAreCorrupt() throws CorruptSegmentException {
    // Two blocks of 1-bit gaps: 127 gaps take two words each, so block 1's gaps start at byte 16.
    long[] values = new long[2 * MonotoneLongs.BLOCK];
    for (int i = 0; i < values.length; i++) {
      values[i] = i;
    }
    PartWriter out = new PartWriter();
    MonotoneLongs.write(out, values, values.length);
    byte[] bytes = out.toByteArray();
    PartReader header = new PartReader("s", "sorted[x]", 0, ByteBuffer.wrap(bytes));
    header.getVarInt();
    header.getVarInt();
    assertThat(header.getVarInt()).isEqualTo(32);
    int blockOneOffset = header.position() + 13 + 9;
    assertThat(readOffset(bytes, blockOneOffset)).isEqualTo(16);
    // Inside the data area (12 + 16 <= 32) but not on a word.
    writeOffset(bytes, blockOneOffset, 12);
    assertThatThrownBy(
            () -> MonotoneLongs.read(new PartReader("s", "sorted[x]", 0, ByteBuffer.wrap(bytes))))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("block 1")
        .hasMessageContaining("data offset 12");
  }

  /** The head's dataOffset u32, in the byte order the writer used. */
  private static long readOffset(byte[] bytes, int at) throws CorruptSegmentException {
    PartReader reader = new PartReader("s", "p", 0, ByteBuffer.wrap(bytes));
    reader.position(at);
    return reader.getInt() & 0xFFFFFFFFL;
  }

  private static void writeOffset(byte[] bytes, int at, int offset) {
    PartWriter writer = new PartWriter(4);
    writer.putInt(offset);
    System.arraycopy(writer.toByteArray(), 0, bytes, at, 4);
  }

  private static MonotoneLongs roundTrip(long[] values) throws CorruptSegmentException {
    PartWriter out = new PartWriter();
    MonotoneLongs.write(out, values, values.length);
    // Off-heap, as a mapped segment file is.
    byte[] bytes = out.toByteArray();
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    PartReader in = new PartReader("s", "p", 0, direct);
    MonotoneLongs decoded = MonotoneLongs.read(in);
    in.expectEnd();
    return decoded;
  }
}
