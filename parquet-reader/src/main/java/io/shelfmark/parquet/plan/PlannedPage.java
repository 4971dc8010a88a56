package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;

/**
 * One data page a plan reads, and which of its rows to decode.
 *
 * @param pageIndex the page's ordinal among the column chunk's data pages
 * @param range the page's bytes in the file, header included
 * @param rows the selected rows of the page (relative to the row group)
 */
public record PlannedPage(int pageIndex, ByteRange range, RowSelection.InPage rows) {
  public PlannedPage {
    requireNonNull(range, "range is null");
    requireNonNull(rows, "rows is null");
    if (pageIndex < 0) {
      throw new IllegalArgumentException("page index is negative: " + pageIndex);
    }
  }
}
