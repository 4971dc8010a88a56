package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.Util;

/**
 * The per-page statistics of one column chunk, from its ColumnIndex (the page index's other half,
 * written beside the OffsetIndex): per data page whether it holds only nulls, its min and max as
 * the writer serialised them (plain encoding of the physical type, little-endian), and its null
 * count when the writer wrote one.
 *
 * <p>What the values promise, per the Parquet format's {@code ColumnIndex}: min and max are
 * <em>bounds</em>, not necessarily values of the page. Writers may truncate BYTE_ARRAY bounds
 * (parquet-java keeps 64 bytes: a truncated min is a prefix of the true one, a truncated max is
 * rounded up) and nothing in the index says whether they did; floating-point bounds exclude NaN.
 * Numeric bounds of integers are exact (a writer has no reason to widen them). Callers decide what
 * they may take as exact values; this class only parses and checks shape. For a page whose {@link
 * #nullPage} is true, min and max hold no value (writers put empty bytes there).
 *
 * <p>Immutable; the buffers handed out are read-only views.
 */
public final class PageStatistics {
  private final ParquetLocation location;
  private final boolean[] nullPages;
  private final ByteBuffer[] mins;
  private final ByteBuffer[] maxes;
  private final long[] nullCounts; // null when the writer wrote none

  private PageStatistics(
      ParquetLocation location,
      boolean[] nullPages,
      ByteBuffer[] mins,
      ByteBuffer[] maxes,
      long[] nullCounts) {
    this.location = location;
    this.nullPages = nullPages;
    this.mins = mins;
    this.maxes = maxes;
    this.nullCounts = nullCounts;
  }

  /** The offset of the chunk's ColumnIndex, or {@code -1} when the writer wrote none. */
  public static long columnIndexOffset(ParquetFooter footer, int rowGroup, int column)
      throws CorruptParquetException {
    ColumnChunk chunk = footer.rowGroup(rowGroup).getColumns().get(column);
    if (!chunk.isSetColumn_index_offset() || !chunk.isSetColumn_index_length()) {
      return -1;
    }
    long offset = chunk.getColumn_index_offset();
    long length = chunk.getColumn_index_length();
    footer.checkIndexRange(rowGroup, column, "column index", offset, length);
    return offset;
  }

  /** The length of the chunk's ColumnIndex (valid when {@link #columnIndexOffset} is not -1). */
  public static int columnIndexLength(ParquetFooter footer, int rowGroup, int column) {
    return footer.rowGroup(rowGroup).getColumns().get(column).getColumn_index_length();
  }

  /**
   * Parses a chunk's serialized ColumnIndex.
   *
   * @param pages the chunk's page locations: the index must list exactly as many pages
   * @throws CorruptParquetException when the bytes are not a ColumnIndex or its lists disagree
   */
  public static PageStatistics parse(
      ParquetFooter footer, int rowGroup, int column, ByteBuffer bytes, ColumnChunkPages pages)
      throws CorruptParquetException {
    requireNonNull(bytes, "bytes is null");
    requireNonNull(pages, "pages is null");
    ParquetLocation where = footer.location(rowGroup, column);
    ColumnIndex index;
    try {
      ByteBuffer copy = bytes.duplicate();
      byte[] array = new byte[copy.remaining()];
      copy.get(array);
      index = Util.readColumnIndex(new ByteArrayInputStream(array));
    } catch (IOException | RuntimeException e) {
      throw new CorruptParquetException(
          where, "column index is not valid Thrift (%s)".formatted(e), e);
    }
    List<Boolean> nulls = index.getNull_pages();
    List<ByteBuffer> min = index.getMin_values();
    List<ByteBuffer> max = index.getMax_values();
    int count = pages.pageCount();
    if (nulls == null || min == null || max == null) {
      throw new CorruptParquetException(where, "column index lacks null_pages or min/max values");
    }
    if (nulls.size() != count || min.size() != count || max.size() != count) {
      throw new CorruptParquetException(
          where,
          "column index lists %d null flags, %d mins and %d maxes for a chunk of %d pages"
              .formatted(nulls.size(), min.size(), max.size(), count));
    }
    List<Long> counts = index.isSetNull_counts() ? index.getNull_counts() : null;
    if (counts != null && counts.size() != count) {
      throw new CorruptParquetException(
          where,
          "column index lists %d null counts for a chunk of %d pages"
              .formatted(counts.size(), count));
    }
    boolean[] nullPages = new boolean[count];
    ByteBuffer[] mins = new ByteBuffer[count];
    ByteBuffer[] maxes = new ByteBuffer[count];
    long[] nullCounts = counts == null ? null : new long[count];
    for (int i = 0; i < count; i++) {
      nullPages[i] = nulls.get(i);
      mins[i] = readOnly(min.get(i));
      maxes[i] = readOnly(max.get(i));
      if (nullCounts != null) {
        nullCounts[i] = counts.get(i);
      }
    }
    return new PageStatistics(where, nullPages, mins, maxes, nullCounts);
  }

  private static ByteBuffer readOnly(ByteBuffer value) {
    return value == null ? ByteBuffer.allocate(0).asReadOnlyBuffer() : value.asReadOnlyBuffer();
  }

  public int pageCount() {
    return nullPages.length;
  }

  /** Whether data page {@code page} holds only nulls (its min and max are then meaningless). */
  public boolean nullPage(int page) {
    return nullPages[page];
  }

  /** The lower bound the writer recorded for the page's non-null values, plain-encoded. */
  public ByteBuffer min(int page) {
    return mins[page].duplicate();
  }

  /** The upper bound the writer recorded for the page's non-null values, plain-encoded. */
  public ByteBuffer max(int page) {
    return maxes[page].duplicate();
  }

  /** The page's null count, or -1 when the writer recorded none. */
  public long nullCount(int page) {
    return nullCounts == null ? -1 : nullCounts[page];
  }

  /** Where these statistics come from (file, row group, column), for messages. */
  public ParquetLocation location() {
    return location;
  }

  @Override
  public String toString() {
    return "PageStatistics{" + location + ", " + nullPages.length + " pages}";
  }
}
