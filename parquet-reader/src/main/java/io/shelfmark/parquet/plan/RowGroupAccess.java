package io.shelfmark.parquet.plan;

/**
 * How a plan reads one row group. Decided from the row selection alone: an index (or a caller that
 * pruned on statistics) expresses "skip" by selecting no row of the group.
 */
public enum RowGroupAccess {
  /** No row is selected: no byte of the row group is read. */
  SKIP,
  /** Every row is selected: every page of each requested column is read. */
  SCAN,
  /** Some rows are selected: only the pages holding them (and dictionary pages) are read. */
  SELECTION
}
