package io.shelfmark.segment.spi;

import io.shelfmark.segment.predicate.ColumnPredicate;
import org.roaringbitmap.RoaringBitmap;

/**
 * Answers comparisons on one column of one segment from one index part.
 *
 * <p>Contract: {@link #evaluate} returns docs inside {@code context} only, never a doc whose value
 * is null (a comparison with null is never true), and, when {@link #coverage} is {@link
 * Coverage#EXACT}, exactly the docs a scan of the values would match. Candidates must include every
 * matching doc of the context not in {@code definite}.
 *
 * <p>Thread safety: readers are immutable once opened and safe for concurrent use. Lifecycle: the
 * segment opens a reader on first use and keeps it until the segment is closed; the reader's
 * buffers are views of the segment's bytes and must not be used after the segment is closed.
 */
public interface IndexReader {
  /** How completely {@link #evaluate} answers {@code predicate} (of this reader's column). */
  Coverage coverage(ColumnPredicate predicate);

  /**
   * The docs of {@code context} matching {@code predicate}. {@code context} is not modified.
   *
   * @throws IllegalArgumentException when {@link #coverage} is {@link Coverage#NONE} or the
   *     literals' type is not the column's
   */
  IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context);

  /** The bytes of this reader's part. */
  long sizeInBytes();
}
