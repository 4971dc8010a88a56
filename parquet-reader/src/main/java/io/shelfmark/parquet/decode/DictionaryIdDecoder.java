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
    int size = dictionary.size();
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
      out.appendDictionaryIds(scratch, 0, n, dictionary);
      count -= n;
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    ids.skip(count);
  }
}
