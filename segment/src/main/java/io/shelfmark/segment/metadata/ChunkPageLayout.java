package io.shelfmark.segment.metadata;

import java.util.Arrays;

/**
 * Where the pages of one column chunk lie and which rows each starts with, as Parquet's OffsetIndex
 * gives them (or as a walk over the page headers found them when the file has no page index).
 * Stored in segments so a query never reads an OffsetIndex or walks headers again.
 *
 * <p>This is the segment's own neutral shape, so the format does not depend on the reader module;
 * {@code io.shelfmark.parquet.metadata.ColumnChunkPages} converts one to one. Immutable (arrays are
 * copied in and out) and validated: pages in file order without overlap, after the dictionary page,
 * the first page at row 0, first rows never decreasing and at most the row count.
 *
 * <p>Per data page it may also record whether the page is dictionary-encoded (from the page headers
 * or the footer's {@code encoding_stats}, when the builder knew): a reader then fetches the chunk's
 * dictionary page only for pages that need it. Layouts without this (written before it, or of
 * chunks whose encodings were unknown) mean every page may need the dictionary.
 */
public final class ChunkPageLayout {
  private final int rowGroup;
  private final int column;
  private final int rowCount;
  private final long dictionaryOffset;
  private final int dictionarySize;
  private final long[] pageOffsets;
  private final int[] pageSizes;
  private final long[] firstRows;
  private final boolean fromOffsetIndex;
  private final boolean[] dictionaryEncoded; // per data page; empty when unknown

  /**
   * @param rowGroup the row group ordinal
   * @param column the leaf column ordinal in the file schema
   * @param rowCount the row group's row count
   * @param dictionaryOffset the dictionary page header's offset, -1 when there is none
   * @param dictionarySize the dictionary page's size with its header, 0 when none
   * @param pageOffsets per data page, its header's offset
   * @param pageSizes per data page, its size with its header
   * @param firstRows per data page, its first row relative to the row group
   * @param fromOffsetIndex whether the layout came from the OffsetIndex (else a header walk)
   */
  public ChunkPageLayout(
      int rowGroup,
      int column,
      int rowCount,
      long dictionaryOffset,
      int dictionarySize,
      long[] pageOffsets,
      int[] pageSizes,
      long[] firstRows,
      boolean fromOffsetIndex) {
    this(
        rowGroup,
        column,
        rowCount,
        dictionaryOffset,
        dictionarySize,
        pageOffsets,
        pageSizes,
        firstRows,
        fromOffsetIndex,
        new boolean[0]);
  }

  /**
   * As above, with the pages' encodings.
   *
   * @param dictionaryEncoded per data page, whether it is dictionary-encoded; empty when unknown
   */
  public ChunkPageLayout(
      int rowGroup,
      int column,
      int rowCount,
      long dictionaryOffset,
      int dictionarySize,
      long[] pageOffsets,
      int[] pageSizes,
      long[] firstRows,
      boolean fromOffsetIndex,
      boolean[] dictionaryEncoded) {
    this.rowGroup = rowGroup;
    this.column = column;
    this.rowCount = rowCount;
    this.dictionaryOffset = dictionaryOffset;
    this.dictionarySize = dictionarySize;
    this.pageOffsets = pageOffsets.clone();
    this.pageSizes = pageSizes.clone();
    this.firstRows = firstRows.clone();
    this.fromOffsetIndex = fromOffsetIndex;
    this.dictionaryEncoded = dictionaryEncoded.clone();
    validate();
  }

  private void validate() {
    String chunk = "row group %d column %d".formatted(rowGroup, column);
    if (rowGroup < 0 || column < 0 || rowCount < 0) {
      throw new IllegalArgumentException(
          "Cannot lay out pages of " + chunk + " with " + rowCount + " rows");
    }
    if (pageOffsets.length != pageSizes.length || pageOffsets.length != firstRows.length) {
      throw new IllegalArgumentException(
          "Cannot lay out pages of %s: %d offsets, %d sizes, %d first rows"
              .formatted(chunk, pageOffsets.length, pageSizes.length, firstRows.length));
    }
    if ((dictionaryOffset < 0) != (dictionarySize == 0) || dictionarySize < 0) {
      throw new IllegalArgumentException(
          "Cannot lay out pages of %s: dictionary at %d of %d bytes (use -1 and 0 for none)"
              .formatted(chunk, dictionaryOffset, dictionarySize));
    }
    if (dictionaryEncoded.length != 0 && dictionaryEncoded.length != pageOffsets.length) {
      throw new IllegalArgumentException(
          "Cannot lay out pages of %s: encodings of %d pages for %d pages (give none when unknown)"
              .formatted(chunk, dictionaryEncoded.length, pageOffsets.length));
    }
    long previousEnd = dictionaryOffset < 0 ? 0 : dictionaryOffset + dictionarySize;
    long previousRow = 0;
    for (int i = 0; i < pageOffsets.length; i++) {
      if (pageOffsets[i] < previousEnd || pageSizes[i] <= 0) {
        throw new IllegalArgumentException(
            "Cannot lay out pages of %s: page %d at %d of %d bytes overlaps what ends at %d"
                .formatted(chunk, i, pageOffsets[i], pageSizes[i], previousEnd));
      }
      if (i == 0 ? firstRows[i] != 0 : firstRows[i] < previousRow) {
        throw new IllegalArgumentException(
            "Cannot lay out pages of %s: page %d starts at row %d after row %d (first page at 0, never decreasing)"
                .formatted(chunk, i, firstRows[i], previousRow));
      }
      if (firstRows[i] > rowCount) {
        throw new IllegalArgumentException(
            "Cannot lay out pages of %s: page %d starts at row %d of %d"
                .formatted(chunk, i, firstRows[i], rowCount));
      }
      previousEnd = pageOffsets[i] + pageSizes[i];
      previousRow = firstRows[i];
    }
  }

  public int rowGroup() {
    return rowGroup;
  }

  public int column() {
    return column;
  }

  public int rowCount() {
    return rowCount;
  }

  public long dictionaryOffset() {
    return dictionaryOffset;
  }

  public int dictionarySize() {
    return dictionarySize;
  }

  public boolean hasDictionaryPage() {
    return dictionarySize > 0;
  }

  public int pageCount() {
    return pageOffsets.length;
  }

  public long pageOffset(int page) {
    return pageOffsets[page];
  }

  public int pageSize(int page) {
    return pageSizes[page];
  }

  public long firstRow(int page) {
    return firstRows[page];
  }

  public long[] pageOffsets() {
    return pageOffsets.clone();
  }

  public int[] pageSizes() {
    return pageSizes.clone();
  }

  public long[] firstRows() {
    return firstRows.clone();
  }

  public boolean fromOffsetIndex() {
    return fromOffsetIndex;
  }

  /** Whether the layout records which pages are dictionary-encoded. */
  public boolean encodingsKnown() {
    return dictionaryEncoded.length == pageOffsets.length && pageOffsets.length > 0;
  }

  /** Per data page, whether it is dictionary-encoded; empty when not known. */
  public boolean[] dictionaryEncoded() {
    return dictionaryEncoded.clone();
  }

  /** Whether data page {@code page} is dictionary-encoded ({@link #encodingsKnown} must hold). */
  public boolean dictionaryEncoded(int page) {
    return dictionaryEncoded[page];
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ChunkPageLayout that
        && rowGroup == that.rowGroup
        && column == that.column
        && rowCount == that.rowCount
        && dictionaryOffset == that.dictionaryOffset
        && dictionarySize == that.dictionarySize
        && fromOffsetIndex == that.fromOffsetIndex
        && Arrays.equals(dictionaryEncoded, that.dictionaryEncoded)
        && Arrays.equals(pageOffsets, that.pageOffsets)
        && Arrays.equals(pageSizes, that.pageSizes)
        && Arrays.equals(firstRows, that.firstRows);
  }

  @Override
  public int hashCode() {
    return (31 * rowGroup + column) * 31 + Arrays.hashCode(pageOffsets);
  }

  @Override
  public String toString() {
    return "ChunkPageLayout[row group %d, column %d, %d pages, %d rows%s, from %s]"
        .formatted(
            rowGroup,
            column,
            pageOffsets.length,
            rowCount,
            hasDictionaryPage() ? ", dictionary at " + dictionaryOffset : "",
            fromOffsetIndex ? "offset index" : "header walk");
  }
}
