package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;

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

  /**
   * Appends the next {@code count} values as {@link #read} does, but decodes only those whose entry
   * is wanted ({@link ColumnBatch.Builder#decodeOnly}): the value appended next is entry {@code
   * out.valueCount()}, and entries at or past {@code wanted.length} are wanted. Unwanted ones are
   * passed over and appended with {@link ColumnBatch.Builder#appendUnwanted}. This default reads
   * and skips runs; decoders whose values are cheap to step over one at a time override it.
   */
  default void readSelected(int count, boolean[] wanted, ColumnBatch.Builder out)
      throws MalformedPageException {
    int entry = out.valueCount();
    int end = entry + count;
    while (entry < end) {
      int run = entry + 1;
      if (entry >= wanted.length || wanted[entry]) {
        while (run < end && (run >= wanted.length || wanted[run])) {
          run++;
        }
        read(run - entry, out);
      } else {
        while (run < end && run < wanted.length && !wanted[run]) {
          run++;
        }
        skip(run - entry);
        out.appendUnwanted(run - entry);
      }
      entry = run;
    }
  }

  /**
   * Appends the values at the page positions {@code selected.row(i) - selected.firstRow()}, for a
   * page where each row is one value (a flat column without nulls in this page), and leaves the
   * decoder past the last of them. The positions ascend (an {@link RowSelection.InPage} property)
   * and the caller has checked that the last one is inside the page. This default reads and skips
   * runs; decoders with random access override it to gather the values directly.
   */
  default void readPositions(RowSelection.InPage selected, ColumnBatch.Builder out)
      throws MalformedPageException {
    int[] cursor = {0};
    SelectedRuns.forEach(
        selected,
        (start, stop) -> {
          skip(start - cursor[0]);
          read(stop - start, out);
          cursor[0] = stop;
        });
  }
}
