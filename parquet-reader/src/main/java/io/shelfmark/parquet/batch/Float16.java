package io.shelfmark.parquet.batch;

/**
 * The FLOAT16 logical type: IEEE 754 half-precision values stored as FIXED_LEN_BYTE_ARRAY(2),
 * little-endian. Batches hold the two bytes; this widens them.
 */
public final class Float16 {
  private Float16() {}

  /** The value of the two bytes at {@code offset}, widened to a float (exactly). */
  public static float toFloat(byte[] data, int offset) {
    return Float.float16ToFloat((short) ((data[offset] & 0xFF) | (data[offset + 1] & 0xFF) << 8));
  }
}
