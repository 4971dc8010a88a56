package io.shelfmark.segment.encoding;

import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;

/**
 * Bit packing of small unsigned ints into whole bytes (not words): value {@code i} occupies bits
 * {@code i * width ..} of the byte stream, low bits first. For many short lists, where padding each
 * to a 64-bit word ({@link BitPacking}) would cost more than the values. Widths 0 to 31.
 */
public final class BytePacking {
  private BytePacking() {}

  /** The bytes {@code count} values of {@code width} bits take. */
  public static int byteCount(int count, int width) {
    return (int) (((long) count * width + 7) >>> 3);
  }

  /** Writes {@code count} values from {@code values[offset]}, each below {@code 2^width}. */
  public static void write(PartWriter out, int[] values, int offset, int count, int width) {
    check(width);
    long accumulator = 0;
    int bits = 0;
    for (int i = 0; i < count; i++) {
      accumulator |= (values[offset + i] & 0xFFFFFFFFL) << bits;
      bits += width;
      while (bits >= 8) {
        out.putByte((int) accumulator);
        accumulator >>>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) {
      out.putByte((int) accumulator);
    }
  }

  /**
   * Writes the {@code count - 1} gaps of ascending {@code docs[from .. from + count - 1]}, each
   * {@code docs[i] - docs[i - 1] - 1}, as {@link #write} would write them from an array: the same
   * bytes, four at a time, with no array of gaps.
   */
  public static void writeGaps(PartWriter out, int[] docs, int from, int count, int width) {
    check(width);
    long accumulator = 0;
    int bits = 0;
    for (int i = from + 1; i < from + count; i++) {
      // bits < 32 and width < 32 here: the accumulator never overflows.
      accumulator |= ((docs[i] - docs[i - 1] - 1) & 0xFFFFFFFFL) << bits;
      bits += width;
      if (bits >= 32) {
        out.putInt((int) accumulator);
        accumulator >>>= 32;
        bits -= 32;
      }
    }
    while (bits > 0) {
      out.putByte((int) accumulator);
      accumulator >>>= 8;
      bits -= 8;
    }
  }

  /**
   * Reads {@code count} values starting at byte {@code start} of {@code buffer} into {@code out}.
   */
  public static void read(ByteBuffer buffer, int start, int count, int width, int[] out) {
    check(width);
    long mask = (1L << width) - 1;
    long accumulator = 0;
    int bits = 0;
    int position = start;
    for (int i = 0; i < count; i++) {
      while (bits < width) {
        accumulator |= (buffer.get(position++) & 0xFFL) << bits;
        bits += 8;
      }
      out[i] = (int) (accumulator & mask);
      accumulator >>>= width;
      bits -= width;
    }
  }

  private static void check(int width) {
    if (width < 0 || width > 31) {
      throw new IllegalArgumentException("Cannot byte-pack values of " + width + " bits (0 to 31)");
    }
  }
}
