package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/**
 * PLAIN BYTE_ARRAY (a 4-byte little-endian length, then the bytes) and, with a fixed {@code width},
 * PLAIN FIXED_LEN_BYTE_ARRAY and INT96 (the bytes alone).
 */
final class PlainBinaryDecoder implements ValueDecoder {
  private final byte[] data;
  private final int end;
  private final int width; // -1 for length-prefixed BYTE_ARRAY
  private int position;

  PlainBinaryDecoder(byte[] data, int offset, int end, int width, int valueCount)
      throws MalformedPageException {
    this.data = data;
    this.position = offset;
    this.end = end;
    this.width = width;
    long minimum = (long) valueCount * (width < 0 ? 4 : width);
    if (minimum > end - offset) {
      throw new MalformedPageException(
          "PLAIN binary data holds %d bytes, too few for %d values"
              .formatted(end - offset, valueCount));
    }
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      int length = nextLength();
      out.appendBinary(data, position, length);
      position += length;
    }
  }

  @Override
  public void readSelected(int count, boolean[] wanted, ColumnBatch.Builder out)
      throws MalformedPageException {
    int entry = out.valueCount();
    int end = entry + count;
    while (entry < end) {
      if (entry >= wanted.length || wanted[entry]) {
        int length = nextLength();
        out.appendBinary(data, position, length);
        position += length;
        entry++;
      } else {
        // Unwanted values are stepped over by their lengths and appended as one run.
        int run = entry;
        while (run < end && run < wanted.length && !wanted[run]) {
          int length = nextLength(); // moves past the length prefix first
          position += length;
          run++;
        }
        out.appendUnwanted(run - entry);
        entry = run;
      }
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    if (width >= 0) {
      if ((long) count * width > end - position) {
        throw new MalformedPageException("PLAIN fixed-length binary data ends early");
      }
      position += count * width;
      return;
    }
    for (int i = 0; i < count; i++) {
      int length = nextLength(); // moves past the length prefix first
      position += length;
    }
  }

  private int nextLength() throws MalformedPageException {
    if (width >= 0) {
      if (end - position < width) {
        throw new MalformedPageException("PLAIN fixed-length binary data ends early");
      }
      return width;
    }
    if (end - position < 4) {
      throw new MalformedPageException("PLAIN BYTE_ARRAY data ends inside a length prefix");
    }
    int length = LittleEndianBytes.getInt(data, position);
    position += 4;
    if (length < 0 || length > end - position) {
      throw new MalformedPageException(
          "PLAIN BYTE_ARRAY value of %d bytes at page offset %d runs past the %d bytes left"
              .formatted(length & 0xFFFFFFFFL, position - 4, end - position));
    }
    return length;
  }
}
