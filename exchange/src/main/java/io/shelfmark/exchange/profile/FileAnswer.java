package io.shelfmark.exchange.profile;

/** How a server answers (or answered) one data file of a query. */
public enum FileAnswer {
  /** The filter leaves no row: nothing is read. */
  NO_ROWS,
  /** A COUNT(*) the index filter answers exactly: the count of its bitmap, nothing read. */
  COUNT_FROM_INDEX,
  /** Every value comes from the segment (forward, sorted or inverted index): no Parquet page. */
  VALUES_FROM_SEGMENT,
  /** The pages holding the rows in play are read from Parquet, in one wave of requests. */
  PARQUET_PAGES,
  /**
   * The file has no segment: its footer is read, row groups pruned on the footer's statistics and
   * the rest read; what is read is known only when it runs.
   */
  WITHOUT_SEGMENT,
  /**
   * Aggregated from a star-tree of the segment (its pre-aggregated records), nothing read but the
   * rows of time edges the tree cannot split (see {@link StarTreeProfile}). Since version 4.
   */
  STAR_TREE
}
