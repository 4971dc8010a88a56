package io.shelfmark.segment.spi;

import io.shelfmark.segment.predicate.ColumnPredicate;
import java.io.IOException;

/**
 * One kind of index: ties its persisted id to its creator and reader. A new index type is one new
 * package {@code io.shelfmark.segment.index.<type>} with its {@code IndexType}, creator, reader and
 * an {@link IndexPlugin} registered for {@link java.util.ServiceLoader}.
 *
 * <p>The evaluator chooses among a column's indexes without reading their parts: by {@link
 * #coverage} first (exact beats candidates), then by {@link #preference} (lower first), and opens
 * only the chosen reader.
 *
 * <p>Thread safety: implementations are stateless and safe for concurrent use.
 */
public interface IndexType {
  /**
   * The persisted id, for example {@code "range"}: the part kind of this index's parts and the name
   * table configs use. Never derived from a class name; never changed once segments exist.
   */
  String id();

  /**
   * The layout version this type's creator writes; its reader reads every version up to this one.
   * Bump it when the layout changes, keeping the reader of older versions.
   */
  int version();

  /** Whether this index can be built on columns of {@code type}. */
  boolean supports(ValueType type);

  /** Whether this index needs the column to have a dictionary (batches then carry ids). */
  boolean needsDictionary(ValueType type);

  /** How completely this index answers {@code predicate} on a column of {@code columnType}. */
  Coverage coverage(ValueType columnType, ColumnPredicate predicate);

  /**
   * The evaluator's preference among indexes of equal coverage for {@code predicate}, lower first:
   * roughly the work per 65536 docs (sorted ≈ 10, one bitmap ≈ 20, a range bitmap ≈ 30, a scan of a
   * forward index ≈ 90).
   */
  int preference(ColumnPredicate predicate);

  /** A creator for one column of one segment. */
  IndexCreator newCreator(CreatorContext context);

  /**
   * Opens a reader over a part this type wrote.
   *
   * @throws io.shelfmark.segment.format.CorruptSegmentException when the part's contents do not
   *     parse
   */
  IndexReader openReader(ReaderContext context) throws IOException;
}
