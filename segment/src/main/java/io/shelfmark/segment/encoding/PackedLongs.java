package io.shelfmark.segment.encoding;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Random access to values written by {@link BitPacking}: a view of the words in a buffer, no
 * copying. Immutable and thread safe (reads use absolute positions).
 */
public final class PackedLongs {
  private final ByteBuffer words;
  private final int count;
  private final int width;
  private final long mask;

  /**
   * @param words a buffer holding exactly {@link BitPacking#wordCount} words from position 0
   */
  public PackedLongs(ByteBuffer words, int count, int width) {
    BitPacking.checkWidth(width);
    this.words = requireNonNull(words, "words is null").slice().order(ByteOrder.LITTLE_ENDIAN);
    if (count < 0 || this.words.remaining() < BitPacking.wordCount(count, width) * 8L) {
      throw new IllegalArgumentException(
          "Cannot read %d packed values of %d bits from %d bytes"
              .formatted(count, width, this.words.remaining()));
    }
    this.count = count;
    this.width = width;
    this.mask = width == 64 ? -1L : (1L << width) - 1;
  }

  public int count() {
    return count;
  }

  public int width() {
    return width;
  }

  /** The value at {@code index}, which the caller keeps in {@code 0..count-1}. */
  public long get(int index) {
    if (width == 0) {
      return 0;
    }
    long bit = (long) index * width;
    int word = (int) (bit >>> 6);
    int shift = (int) (bit & 63);
    long value = words.getLong(word << 3) >>> shift;
    if (shift + width > 64) {
      value |= words.getLong((word + 1) << 3) << (64 - shift);
    }
    return value & mask;
  }

  /** Reads {@code length} consecutive values from {@code from} into {@code out} as ints. */
  public void getInts(int from, int length, int[] out, int outOffset) {
    for (int i = 0; i < length; i++) {
      out[outOffset + i] = (int) get(from + i);
    }
  }
}
