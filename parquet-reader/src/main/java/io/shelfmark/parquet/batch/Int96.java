package io.shelfmark.parquet.batch;

/**
 * Legacy INT96 timestamps (Impala, Hive, Spark): 8 little-endian bytes of nanoseconds within the
 * day followed by 4 little-endian bytes of the Julian day number.
 */
public final class Int96 {
  /** The Julian day number of 1970-01-01. */
  public static final long JULIAN_EPOCH_DAY = 2_440_588L;

  private static final long NANOS_PER_DAY = 86_400L * 1_000_000_000L;

  private Int96() {}

  /** The nanoseconds since the epoch of the INT96 value at {@code offset} (wraps past 2262). */
  public static long toEpochNanos(byte[] data, int offset) {
    long nanosOfDay = littleEndianLong(data, offset);
    long julianDay =
        (data[offset + 8] & 0xFFL)
            | (data[offset + 9] & 0xFFL) << 8
            | (data[offset + 10] & 0xFFL) << 16
            | (data[offset + 11] & 0xFFL) << 24;
    return (julianDay - JULIAN_EPOCH_DAY) * NANOS_PER_DAY + nanosOfDay;
  }

  /** The microseconds since the epoch of the INT96 value at {@code offset}. */
  public static long toEpochMicros(byte[] data, int offset) {
    long nanosOfDay = littleEndianLong(data, offset);
    long julianDay =
        (data[offset + 8] & 0xFFL)
            | (data[offset + 9] & 0xFFL) << 8
            | (data[offset + 10] & 0xFFL) << 16
            | (data[offset + 11] & 0xFFL) << 24;
    return (julianDay - JULIAN_EPOCH_DAY) * 86_400_000_000L + Math.floorDiv(nanosOfDay, 1000L);
  }

  private static long littleEndianLong(byte[] data, int offset) {
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = value << 8 | (data[offset + i] & 0xFFL);
    }
    return value;
  }
}
