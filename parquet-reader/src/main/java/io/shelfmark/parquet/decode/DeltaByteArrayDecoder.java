package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import java.util.Arrays;

/**
 * DELTA_BYTE_ARRAY (incremental encoding): per value the length of the prefix shared with the
 * previous value (DELTA_BINARY_PACKED), then the suffixes (DELTA_LENGTH_BYTE_ARRAY). Each value
 * depends on the previous one, so skipped values are still reconstructed (but not appended).
 */
final class DeltaByteArrayDecoder implements ValueDecoder {
  private final DeltaBinaryPackedDecoder prefixes;
  private final DeltaLengthByteArrayDecoder suffixes;
  private final byte[] data;
  private final int fixedLength; // -1 for BYTE_ARRAY
  private byte[] current = new byte[64];
  private int currentLength;

  DeltaByteArrayDecoder(byte[] data, int offset, int end, int fixedLength)
      throws MalformedPageException {
    this.data = data;
    this.fixedLength = fixedLength;
    this.prefixes = new DeltaBinaryPackedDecoder(data, offset, end, true);
    this.suffixes = new DeltaLengthByteArrayDecoder(data, prefixes.endOffset(), end);
  }

  private void next() throws MalformedPageException {
    int prefix = (int) prefixes.nextLong();
    int suffix = suffixes.next();
    if (prefix < 0 || prefix > currentLength) {
      throw new MalformedPageException(
          "DELTA_BYTE_ARRAY prefix of %d bytes is longer than the previous value's %d"
              .formatted(prefix & 0xFFFFFFFFL, currentLength));
    }
    int length = prefix + suffix;
    if (length > current.length) {
      current = Arrays.copyOf(current, Math.max(length, current.length * 2));
    }
    System.arraycopy(data, suffixes.valueOffset(), current, prefix, suffix);
    currentLength = length;
    if (fixedLength >= 0 && length != fixedLength) {
      throw new MalformedPageException(
          "DELTA_BYTE_ARRAY value of %d bytes in a FIXED_LEN_BYTE_ARRAY(%d) column"
              .formatted(length, fixedLength));
    }
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      next();
      out.appendBinary(current, 0, currentLength);
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      next();
    }
  }
}
