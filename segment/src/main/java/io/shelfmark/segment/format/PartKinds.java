package io.shelfmark.segment.format;

import java.util.Set;

/**
 * The persisted kinds of the core parts every reader must understand. Index parts use their index
 * type's id (for example {@code "range"}) as their kind. These strings are written into segments:
 * never change one.
 */
public final class PartKinds {
  /** Segment-wide: doc count, data files, columns, map columns ({@code SegmentMetadata}). */
  public static final String METADATA = "metadata";

  /** Segment-wide: per-file and per-row-group column statistics ({@code SegmentStatistics}). */
  public static final String STATISTICS = "statistics";

  /** Per file: the raw Parquet footer (FileMetaData) bytes, opaque to the segment. */
  public static final String FOOTER = "footer";

  /** Per file: the page locations of every column chunk ({@code ChunkPageLayout}). */
  public static final String PAGES = "pages";

  /** Per column: a RoaringBitmap of the docs whose value is null. */
  public static final String NULLS = "nulls";

  /** Per column: the sorted dictionary of distinct non-null values. */
  public static final String DICTIONARY = "dictionary";

  /**
   * Per file: the Parquet dictionary pages kept with the segment ({@code ParquetDictionaryPages}),
   * so a server fetches only data pages. Optional: absent when the builder kept none.
   */
  public static final String DICTIONARY_PAGES = "dictionary-pages";

  /**
   * Segment-wide, one per configured star-tree (named by its ordinal): pre-aggregated records
   * ({@code io.shelfmark.segment.startree}). Optional, and only an accelerator: a reader that does
   * not know its version skips it.
   */
  public static final String STAR_TREE = "star-tree";

  /** Every core kind: index types may not use these ids. */
  public static final Set<String> CORE =
      Set.of(METADATA, STATISTICS, FOOTER, PAGES, NULLS, DICTIONARY, DICTIONARY_PAGES, STAR_TREE);

  private PartKinds() {}
}
