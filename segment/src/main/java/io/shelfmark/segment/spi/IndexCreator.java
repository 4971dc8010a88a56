package io.shelfmark.segment.spi;

import java.util.Optional;

/**
 * Builds one index over one column of one segment.
 *
 * <p>Lifecycle: the segment builder creates it once the column's dictionary (if any) and profile
 * are known, calls {@link #add} with every doc of the segment in doc-id order (one or more batches
 * covering exactly {@code profile.docCount()} docs), then {@link #seal()} once. Not thread safe:
 * one creator per column per segment, driven by one thread.
 */
public interface IndexCreator {
  /** Adds the next {@code batch.count()} docs. */
  void add(ValueBatch batch);

  /**
   * Ends the input and returns the part's bytes, in the layout of the type's current version, or
   * empty when the index does not apply to these values (a sorted index over unsorted values).
   */
  Optional<byte[]> seal();
}
