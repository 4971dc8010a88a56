package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/**
 * Decodes only the wanted value entries of a page (see {@link ColumnBatch.Builder#decodeOnly}),
 * through {@link ValueDecoder#readSelected}: the page assembler stays unaware of the selection. An
 * entry's index is its position in the batch, so the wanted flags of one row group serve all of its
 * pages. Not thread safe.
 */
final class SelectiveValueDecoder implements ValueDecoder {
  private final ValueDecoder values;
  private final boolean[] wanted;

  SelectiveValueDecoder(ValueDecoder values, boolean[] wanted) {
    this.values = values;
    this.wanted = wanted;
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    values.readSelected(count, wanted, out);
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    values.skip(count);
  }
}
