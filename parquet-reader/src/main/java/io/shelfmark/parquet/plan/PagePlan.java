package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The immutable plan of one read of one Parquet file, made before any data byte is fetched: per row
 * group {@link RowGroupAccess#SKIP}, {@link RowGroupAccess#SCAN} or {@link
 * RowGroupAccess#SELECTION}, and per requested column the dictionary page and data pages to read
 * with their byte ranges. Built by {@link PagePlanner}; the reader hands {@link #ranges()} to the
 * range coalescer in one call.
 *
 * <pre>
 * PagePlan(file)
 *  ├─ RowGroupPlan 0  SKIP
 *  ├─ RowGroupPlan 1  SELECTION rows {17, 18, 4000}
 *  │   ├─ ColumnChunkPlan a   dictionary [4, 90)   pages 0 [90, 1130) rows {17, 18}; 3 [..) {4000}
 *  │   └─ ColumnChunkPlan b   pages 0 ...
 *  └─ RowGroupPlan 2  SCAN  every page of a and b
 * </pre>
 *
 * @param file the data file's location, for messages
 * @param rowGroups one plan per row group of the file, in file order
 */
public record PagePlan(String file, List<RowGroupPlan> rowGroups) {
  public PagePlan {
    requireNonNull(file, "file is null");
    rowGroups = List.copyOf(requireNonNull(rowGroups, "rowGroups is null"));
  }

  /**
   * Every byte range the plan fetches, dictionary pages first within each chunk, in plan order;
   * kept dictionary pages are not among them.
   */
  public List<ByteRange> ranges() {
    List<ByteRange> ranges = new ArrayList<>();
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        column.fetchedDictionaryPage().ifPresent(ranges::add);
        for (PlannedPage page : column.pages()) {
          ranges.add(page.range());
        }
      }
    }
    return ranges;
  }

  /** The number of data pages planned. */
  public int dataPageCount() {
    int count = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        count += column.pages().size();
      }
    }
    return count;
  }

  /** The number of dictionary pages planned to be fetched (kept ones are not counted). */
  public int dictionaryPageCount() {
    int count = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        count += column.fetchedDictionaryPage().isPresent() ? 1 : 0;
      }
    }
    return count;
  }

  /** The number of dictionary pages the plan needs that the caller holds already. */
  public int keptDictionaryPageCount() {
    int count = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        count += column.dictionaryKept() ? 1 : 0;
      }
    }
    return count;
  }

  /**
   * The number of dictionary pages not read because none of their chunk's planned pages is
   * dictionary-encoded.
   */
  public int skippedDictionaryPageCount() {
    int count = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        count += column.dictionarySkipped() ? 1 : 0;
      }
    }
    return count;
  }

  /**
   * The bytes any reader of this plan must fetch: the planned pages themselves, before coalescing
   * adds the gaps between them and before the footer or page indexes. Kept dictionary pages are not
   * fetched, so not counted.
   */
  public long lowerBoundBytes() {
    long bytes = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      for (ColumnChunkPlan column : rowGroup.columns()) {
        bytes += column.bytes();
      }
    }
    return bytes;
  }

  /** The number of selected rows across row groups. */
  public long selectedRowCount() {
    long rows = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      rows += rowGroup.access() == RowGroupAccess.SKIP ? 0 : rowGroup.rows().size();
    }
    return rows;
  }

  @Override
  public String toString() {
    int skipped = 0;
    for (RowGroupPlan rowGroup : rowGroups) {
      skipped += rowGroup.access() == RowGroupAccess.SKIP ? 1 : 0;
    }
    return "PagePlan[%s: %d of %d row groups, %d data pages, %d dictionary pages (%d more kept, %d not needed), %d bytes]"
        .formatted(
            file,
            rowGroups.size() - skipped,
            rowGroups.size(),
            dataPageCount(),
            dictionaryPageCount(),
            keptDictionaryPageCount(),
            skippedDictionaryPageCount(),
            lowerBoundBytes());
  }
}
