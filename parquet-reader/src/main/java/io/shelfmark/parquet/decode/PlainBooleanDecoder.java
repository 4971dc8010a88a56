package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/** PLAIN BOOLEAN: one bit per value, least significant bit first. */
final class PlainBooleanDecoder implements ValueDecoder {
  private static final int CHUNK = 1024;

  private final byte[] data;
  private final long endBit;
  private final boolean[] scratch = new boolean[CHUNK];
  private long bit;

  PlainBooleanDecoder(byte[] data, int offset, int end) {
    this.data = data;
    this.bit = (long) offset * 8;
    this.endBit = (long) end * 8;
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    checkAvailable(count);
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      for (int i = 0; i < n; i++, bit++) {
        scratch[i] = (data[(int) (bit >>> 3)] >> (bit & 7) & 1) != 0;
      }
      out.appendBooleans(scratch, 0, n);
      count -= n;
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    checkAvailable(count);
    bit += count;
  }

  private void checkAvailable(int count) throws MalformedPageException {
    if (count > endBit - bit) {
      throw new MalformedPageException(
          "PLAIN BOOLEAN data ends after %d more values, %d wanted".formatted(endBit - bit, count));
    }
  }
}
