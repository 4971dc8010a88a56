package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The page layout of one column chunk: its dictionary page's byte range (when it has one) and, per
 * data page, the byte range and first row. Built from the file's OffsetIndex or by walking the page
 * headers once ({@link PageLocator}); stored in segments so a query never repeats either.
 *
 * <p>Validated on construction: pages are in file order without overlap, the dictionary page lies
 * before the first data page, the first page starts at row 0 and first rows never decrease and stay
 * at most {@code rowCount}. Pages holding no rows (a first row equal to the next page's or to
 * {@code rowCount}) are kept: a full scan reads them, a selection never picks them.
 *
 * @param dictionaryOffset the dictionary page's header offset, or {@code -1} when there is none
 * @param dictionarySize the dictionary page's length with its header, or {@code 0} when none
 * @param pages the data pages, in file order
 * @param rowCount the number of rows in the row group (the last page ends there)
 * @param source where the layout came from
 * @param encodings which data pages are dictionary-encoded, when known (else {@link
 *     PageEncodings#UNKNOWN}: any may be)
 */
public record ColumnChunkPages(
    long dictionaryOffset,
    int dictionarySize,
    List<PageLocation> pages,
    int rowCount,
    Source source,
    PageEncodings encodings) {

  /** Where a layout came from. Persisted by ordinal in segments: append, never reorder. */
  public enum Source {
    OFFSET_INDEX,
    HEADER_WALK
  }

  public ColumnChunkPages {
    requireNonNull(pages, "pages is null");
    requireNonNull(source, "source is null");
    requireNonNull(encodings, "encodings is null");
    pages = List.copyOf(pages);
    if (encodings.known() && encodings.pageCount() != pages.size()) {
      throw new IllegalArgumentException(
          "encodings describe %d data pages but the chunk has %d"
              .formatted(encodings.pageCount(), pages.size()));
    }
    if (rowCount < 0) {
      throw new IllegalArgumentException("row count is negative: " + rowCount);
    }
    if ((dictionaryOffset < 0) != (dictionarySize == 0) || dictionarySize < 0) {
      throw new IllegalArgumentException(
          "dictionary page at offset %d of %d bytes: use offset -1 and size 0 for none, else a positive size"
              .formatted(dictionaryOffset, dictionarySize));
    }
    if (rowCount > 0 && pages.isEmpty()) {
      throw new IllegalArgumentException(
          "no data pages for a row group of %d rows".formatted(rowCount));
    }
    long previousEnd = dictionaryOffset < 0 ? 0 : dictionaryOffset + dictionarySize;
    long previousRow = 0;
    for (int i = 0; i < pages.size(); i++) {
      PageLocation page = pages.get(i);
      if (page.offset() < previousEnd) {
        throw new IllegalArgumentException(
            "page %d at offset %d overlaps the page or dictionary before it, which ends at %d"
                .formatted(i, page.offset(), previousEnd));
      }
      if (i == 0 ? page.firstRowIndex() != 0 : page.firstRowIndex() < previousRow) {
        throw new IllegalArgumentException(
            "page %d starts at row %d after a page starting at row %d (the first page must start at row 0, first rows must not decrease)"
                .formatted(i, page.firstRowIndex(), previousRow));
      }
      if (page.firstRowIndex() > rowCount) {
        throw new IllegalArgumentException(
            "page %d starts at row %d but the row group has %d rows"
                .formatted(i, page.firstRowIndex(), rowCount));
      }
      previousEnd = page.end();
      previousRow = page.firstRowIndex();
    }
  }

  /** A layout whose pages' encodings are unknown (each may need the dictionary page). */
  public ColumnChunkPages(
      long dictionaryOffset,
      int dictionarySize,
      List<PageLocation> pages,
      int rowCount,
      Source source) {
    this(dictionaryOffset, dictionarySize, pages, rowCount, source, PageEncodings.UNKNOWN);
  }

  /** The same layout with these encodings. */
  public ColumnChunkPages withEncodings(PageEncodings encodings) {
    return new ColumnChunkPages(
        dictionaryOffset, dictionarySize, pages, rowCount, source, encodings);
  }

  /**
   * Whether reading data page {@code page} needs the chunk's dictionary page: when the chunk has
   * one and the page is, or may be, dictionary-encoded.
   */
  public boolean pageNeedsDictionary(int page) {
    return hasDictionaryPage() && encodings.mayNeedDictionary(page);
  }

  /**
   * The share of the chunk's rows on data pages that need, or may need, its dictionary page: what a
   * query reading one random row of the chunk needs the dictionary page for. 0 without a dictionary
   * page; 1 when the pages' encodings are unknown.
   */
  public double rowShareNeedingDictionary() {
    if (!hasDictionaryPage() || rowCount == 0) {
      return 0;
    }
    long rows = 0;
    for (int page = 0; page < pages.size(); page++) {
      if (encodings.mayNeedDictionary(page)) {
        rows += pageRowCount(page);
      }
    }
    return (double) rows / rowCount;
  }

  public boolean hasDictionaryPage() {
    return dictionarySize > 0;
  }

  public int pageCount() {
    return pages.size();
  }

  public PageLocation page(int index) {
    return pages.get(index);
  }

  /** The number of rows in page {@code index}: up to the next page's first row or the end. */
  public int pageRowCount(int index) {
    long end = index + 1 < pages.size() ? pages.get(index + 1).firstRowIndex() : rowCount;
    return (int) (end - pages.get(index).firstRowIndex());
  }

  /** The first byte of the chunk as laid out here: the dictionary page or the first data page. */
  public long start() {
    if (hasDictionaryPage()) {
      return dictionaryOffset;
    }
    return pages.isEmpty() ? 0 : pages.get(0).offset();
  }

  /** The byte just past the last page (or the dictionary when there are no data pages). */
  public long end() {
    if (!pages.isEmpty()) {
      return pages.get(pages.size() - 1).end();
    }
    return hasDictionaryPage() ? dictionaryOffset + dictionarySize : 0;
  }

  @Override
  public String toString() {
    return "ColumnChunkPages[%d pages, %d rows%s, from %s%s]"
        .formatted(
            pages.size(),
            rowCount,
            hasDictionaryPage() ? ", dictionary at " + dictionaryOffset : "",
            source,
            encodings.known() ? ", " + encodings : "");
  }
}
