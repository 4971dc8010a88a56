package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;

/**
 * Reads the non-null values of one data page in one encoding, in order. Created per page by {@link
 * ValueDecoders}; not thread safe. Reading past the values the page holds, or finding bytes that
 * contradict the encoding, throws {@link MalformedPageException}.
 */
interface ValueDecoder {
  /** Appends the next {@code count} values to {@code out}. */
  void read(int count, ColumnBatch.Builder out) throws MalformedPageException;

  /**
   * Passes over the next {@code count} values, decoding no more of them than the encoding needs.
   */
  void skip(int count) throws MalformedPageException;
}
