package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;

/**
 * RLE_DICTIONARY / PLAIN_DICTIONARY data: one byte of bit width, then ids in the RLE / bit-packing
 * hybrid. Every id is checked against the dictionary before it reaches a batch.
 */
final class DictionaryIdDecoder implements ValueDecoder {
  private static final int CHUNK = 1024;

  private final RleBitPackedDecoder ids;
  private final PrimitiveValues dictionary;
  private final int[] scratch = new int[CHUNK];

  DictionaryIdDecoder(byte[] data, int offset, int end, PrimitiveValues dictionary)
      throws MalformedPageException {
    if (end - offset < 1) {
      throw new MalformedPageException("dictionary-encoded data has no bit width byte");
    }
    int bitWidth = data[offset] & 0xFF;
    if (bitWidth > 32) {
      throw new MalformedPageException(
          "dictionary id bit width is %d (must be 0 to 32)".formatted(bitWidth));
    }
    this.ids = new RleBitPackedDecoder(data, offset + 1, end, bitWidth);
    this.dictionary = dictionary;
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    readSelected(count, null, out);
  }

  /** Ids are cheap to decode: every id is read and checked, and unwanted entries get id -1. */
  @Override
  public void readSelected(int count, boolean[] wanted, ColumnBatch.Builder out)
      throws MalformedPageException {
    int size = dictionary.size();
    int entry = out.valueCount();
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      ids.read(scratch, 0, n);
      for (int i = 0; i < n; i++) {
        if (scratch[i] < 0 || scratch[i] >= size) {
          throw new MalformedPageException(
              "dictionary id %d is out of range for a dictionary of %d values"
                  .formatted(scratch[i] & 0xFFFFFFFFL, size));
        }
      }
      if (wanted != null) {
        int last = Math.min(n, wanted.length - entry);
        for (int i = 0; i < last; i++) {
          if (!wanted[entry + i]) {
            scratch[i] = -1;
          }
        }
      }
      out.appendDictionaryIds(scratch, 0, n, dictionary);
      entry += n;
      count -= n;
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    ids.skip(count);
  }
}
