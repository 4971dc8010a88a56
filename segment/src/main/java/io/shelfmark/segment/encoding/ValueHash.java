package io.shelfmark.segment.encoding;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The 64-bit hash of values that bloom filters persist ("Shelfmark value hash, version 1"). It is
 * part of the format: changing it would make existing filters answer wrongly, so a new function
 * needs a new bloom part version. Longs and the sortable bits of doubles hash through a 64-bit
 * finalizer; strings hash their UTF-8 bytes eight at a time, then through the same finalizer.
 */
public final class ValueHash {
  private static final long SEED = 0x5EC7_1A9E_3779_B97FL;
  private static final long MULTIPLIER = 0x9E37_79B9_7F4A_7C15L;

  // Reads eight bytes as one little-endian long (one unaligned load where the CPU allows it): the
  // same value as assembling the bytes one at a time, so the persisted hash does not change.
  private static final VarHandle LITTLE_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private ValueHash() {}

  /** A bijective mixer: every input bit affects every output bit. */
  public static long mix(long value) {
    long z = value;
    z = (z ^ (z >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
    z = (z ^ (z >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
    return z ^ (z >>> 33);
  }

  public static long hashLong(long value) {
    return mix(value ^ SEED);
  }

  public static long hashBytes(byte[] data, int offset, int length) {
    long hash = SEED ^ (length * MULTIPLIER);
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      hash = Long.rotateLeft(hash ^ mix(littleEndianLong(data, offset + i)), 29) * MULTIPLIER;
    }
    if (i < length) {
      long tail = 0;
      for (int shift = 0; i < length; i++, shift += 8) {
        tail |= (data[offset + i] & 0xFFL) << shift;
      }
      hash = Long.rotateLeft(hash ^ mix(tail), 29) * MULTIPLIER;
    }
    return mix(hash ^ length);
  }

  private static long littleEndianLong(byte[] data, int offset) {
    return (long) LITTLE_ENDIAN_LONG.get(data, offset);
  }
}
