package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/**
 * DELTA_LENGTH_BYTE_ARRAY: every value's length (DELTA_BINARY_PACKED), then all values' bytes back
 * to back. Lengths are decoded lazily; the bytes start where the lengths' blocks end. Also the
 * suffixes of DELTA_BYTE_ARRAY.
 */
final class DeltaLengthByteArrayDecoder implements ValueDecoder {
  private final byte[] data;
  private final int end;
  private final DeltaBinaryPackedDecoder lengths;
  private int position;
  private int valueOffset;

  DeltaLengthByteArrayDecoder(byte[] data, int offset, int end) throws MalformedPageException {
    this.data = data;
    this.end = end;
    this.lengths = new DeltaBinaryPackedDecoder(data, offset, end, true);
    this.position = lengths.endOffset();
  }

  /** The number of values the lengths' header declares. */
  long totalCount() {
    return lengths.totalCount();
  }

  /** Moves to the next value and returns its length; its bytes start at {@link #valueOffset()}. */
  int next() throws MalformedPageException {
    int length = (int) lengths.nextLong();
    if (length < 0 || length > end - position) {
      throw new MalformedPageException(
          "DELTA_LENGTH_BYTE_ARRAY value of %d bytes runs past the %d bytes left"
              .formatted(length & 0xFFFFFFFFL, end - position));
    }
    valueOffset = position;
    position += length;
    return length;
  }

  int valueOffset() {
    return valueOffset;
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      int length = next();
      out.appendBinary(data, valueOffset, length);
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      next();
    }
  }
}
