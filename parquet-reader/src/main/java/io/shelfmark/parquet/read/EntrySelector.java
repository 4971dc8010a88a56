package io.shelfmark.parquet.read;

import io.shelfmark.parquet.batch.ColumnBatch;

/**
 * Chooses which value entries of one leaf column to decode, row group by row group, from the batch
 * of another leaf of the same read decoded just before it: typically a map's values from its keys,
 * so the values under keys nobody reads are passed over. See {@link ParquetRead#selectEntries}.
 * Called on the read's consumer thread.
 */
@FunctionalInterface
public interface EntrySelector {
  /**
   * The entries to decode: {@code wanted[e]} for entry {@code e} of the target leaf (entries past
   * the array's end are decoded), or {@code null} to decode every entry of this row group. The
   * array is read while the target leaf's batch is built, and may be reused afterwards.
   */
  boolean[] select(ColumnBatch source);
}
