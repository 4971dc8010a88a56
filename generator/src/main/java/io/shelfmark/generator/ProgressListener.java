package io.shelfmark.generator;

/**
 * Receives progress while {@link MetricsTableGenerator} writes, for a progress bar.
 *
 * <p>Threading: called from the writer threads, but never concurrently (calls are serialized), with
 * strictly increasing {@code rowsWritten}; the last call has {@code rowsWritten == totalRows}.
 * Calls come every ~0.1% of the table at most, so an implementation may print. It must return
 * quickly; an exception it throws aborts the generation.
 */
@FunctionalInterface
public interface ProgressListener {
  /** {@code rowsWritten} rows of {@code totalRows} have been handed to the Parquet writers. */
  void rowsWritten(long rowsWritten, long totalRows);

  /** A listener that ignores progress. */
  static ProgressListener none() {
    return (rowsWritten, totalRows) -> {};
  }
}
