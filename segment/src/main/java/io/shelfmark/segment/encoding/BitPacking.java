package io.shelfmark.segment.encoding;

import io.shelfmark.segment.format.PartWriter;

/**
 * Fixed-width bit packing of unsigned values into little-endian 64-bit words: value {@code i}
 * occupies bits {@code i * width .. (i + 1) * width - 1} of the word stream, low bits first, and
 * may straddle two words. Read back with {@link PackedLongs}.
 */
public final class BitPacking {
  private BitPacking() {}

  /** The number of bits needed for values up to {@code maxUnsigned} (0 for 0). */
  public static int bitWidth(long maxUnsigned) {
    return 64 - Long.numberOfLeadingZeros(maxUnsigned);
  }

  /** The number of 64-bit words {@code count} values of {@code width} bits take. */
  public static int wordCount(int count, int width) {
    return (int) (((long) count * width + 63) >>> 6);
  }

  /** Packs {@code count} ints (as unsigned values below {@code 2^width}) and writes the words. */
  public static void writeInts(PartWriter out, int[] values, int count, int width) {
    checkWidth(width);
    long[] words = new long[wordCount(count, width)];
    long mask = width == 64 ? -1L : (1L << width) - 1;
    long bit = 0;
    for (int i = 0; i < count; i++, bit += width) {
      put(words, bit, values[i] & 0xFFFFFFFFL & mask, width);
    }
    out.putLongs(words, words.length);
  }

  /** Packs {@code count} longs from {@code offset} (unsigned, below {@code 2^width}). */
  public static void writeLongs(PartWriter out, long[] values, int offset, int count, int width) {
    checkWidth(width);
    long[] words = new long[wordCount(count, width)];
    long mask = width == 64 ? -1L : (1L << width) - 1;
    long bit = 0;
    for (int i = 0; i < count; i++, bit += width) {
      put(words, bit, values[offset + i] & mask, width);
    }
    out.putLongs(words, words.length);
  }

  private static void put(long[] words, long bit, long value, int width) {
    if (width == 0) {
      return;
    }
    int word = (int) (bit >>> 6);
    int shift = (int) (bit & 63);
    words[word] |= value << shift;
    if (shift + width > 64) {
      words[word + 1] |= value >>> (64 - shift);
    }
  }

  static void checkWidth(int width) {
    if (width < 0 || width > 64) {
      throw new IllegalArgumentException("Cannot pack values of " + width + " bits (0 to 64)");
    }
  }
}
