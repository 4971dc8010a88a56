package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/** RLE BOOLEAN (data page v2): a 4-byte length, then the RLE / bit-packing hybrid of width 1. */
final class RleBooleanDecoder implements ValueDecoder {
  private static final int CHUNK = 1024;

  private final RleBitPackedDecoder bits;
  private final int[] ints = new int[CHUNK];
  private final boolean[] booleans = new boolean[CHUNK];

  RleBooleanDecoder(byte[] data, int offset, int end) throws MalformedPageException {
    if (end - offset < 4) {
      throw new MalformedPageException("RLE BOOLEAN data has no length prefix");
    }
    int length = LittleEndianBytes.getInt(data, offset);
    if (length < 0 || length > end - offset - 4) {
      throw new MalformedPageException(
          "RLE BOOLEAN length %d runs past the %d bytes left"
              .formatted(length & 0xFFFFFFFFL, end - offset - 4));
    }
    this.bits = new RleBitPackedDecoder(data, offset + 4, offset + 4 + length, 1);
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      bits.read(ints, 0, n);
      for (int i = 0; i < n; i++) {
        booleans[i] = ints[i] != 0;
      }
      out.appendBooleans(booleans, 0, n);
      count -= n;
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    bits.skip(count);
  }
}
