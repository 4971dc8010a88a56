package io.shelfmark.parquet.decode;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unpacks groups of 8 values bit-packed least significant bit first, as Parquet's RLE / bit-packing
 * hybrid stores them: value {@code i} of a group of width {@code w} is bits {@code [i * w, (i + 1)
 * * w)} of the group's little-endian bytes. Reads the byte array directly (levels and dictionary
 * ids are the hottest loop of decoding): a group of width up to 8 is one 8-byte load.
 */
final class BitUnpacking {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private BitUnpacking() {}

  /**
   * Unpacks 8 values of {@code width} bits (1 to 32) from {@code in[position .. position + width)}
   * into {@code out[offset .. offset + 8)}. The caller has checked that the group's bytes lie in
   * the array.
   */
  static void unpack8(byte[] in, int position, int width, int[] out, int offset) {
    if (width <= 8 && position + Long.BYTES <= in.length) {
      long word = (long) LONG.get(in, position);
      int mask = (1 << width) - 1;
      for (int i = 0; i < 8; i++) {
        out[offset + i] = (int) (word >>> (i * width)) & mask;
      }
      return;
    }
    long mask = (1L << width) - 1;
    long bits = 0;
    int held = 0;
    int next = position;
    for (int i = 0; i < 8; i++) {
      while (held < width) {
        bits |= (in[next++] & 0xFFL) << held;
        held += 8;
      }
      out[offset + i] = (int) (bits & mask);
      bits >>>= width;
      held -= width;
    }
  }
}
