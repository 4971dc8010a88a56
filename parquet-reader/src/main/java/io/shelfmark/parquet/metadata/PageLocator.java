package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.OffsetIndex;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * Finds the pages of a column chunk, the two ways a Parquet file allows:
 *
 * <ul>
 *   <li>{@link #fromOffsetIndex}: from the chunk's OffsetIndex (written by parquet-java, Arrow,
 *       DuckDB and others beside the footer): no data bytes needed;
 *   <li>{@link #walk}: by reading every page header from the chunk's first byte to its last, for
 *       files written without a page index. Row counts come from the headers, except for data page
 *       v1 of repeated columns, whose rows are counted from their repetition levels by a {@link
 *       PageRowCounter}.
 * </ul>
 *
 * Either way the pages' encodings are recorded where known ({@link PageEncodings}: from the headers
 * walked, or from the footer's {@code encoding_stats}), so a reader fetches a dictionary page only
 * for the pages that need it. The result is validated against the footer (row counts, byte ranges
 * inside the chunk and the file) and any contradiction is a {@link CorruptParquetException} naming
 * file, row group and column. Stateless and thread safe.
 */
public final class PageLocator {
  private PageLocator() {}

  /** The offset of the chunk's OffsetIndex, or {@code -1} when the file has none for it. */
  public static long offsetIndexOffset(ParquetFooter footer, int rowGroup, int column)
      throws CorruptParquetException {
    ColumnChunk chunk = footer.rowGroup(rowGroup).getColumns().get(column);
    if (!chunk.isSetOffset_index_offset() || !chunk.isSetOffset_index_length()) {
      return -1;
    }
    long offset = chunk.getOffset_index_offset();
    long length = chunk.getOffset_index_length();
    footer.checkIndexRange(rowGroup, column, "offset index", offset, length);
    return offset;
  }

  /** The length of the chunk's OffsetIndex (valid when {@link #offsetIndexOffset} is not -1). */
  public static int offsetIndexLength(ParquetFooter footer, int rowGroup, int column) {
    return footer.rowGroup(rowGroup).getColumns().get(column).getOffset_index_length();
  }

  /** The chunk's first byte (its dictionary page, if any, else its first data page). */
  public static long chunkOffset(ParquetFooter footer, int rowGroup, int column) {
    return ParquetFooter.chunkStart(footer.columnChunk(rowGroup, column));
  }

  /** The chunk's length in bytes, validated by the footer to end before the footer. */
  public static long chunkLength(ParquetFooter footer, int rowGroup, int column) {
    return footer.columnChunk(rowGroup, column).getTotal_compressed_size();
  }

  /**
   * Builds the page layout from the chunk's serialized OffsetIndex. The dictionary page, which the
   * OffsetIndex does not list, is the gap between the chunk's start and its first data page.
   */
  public static ColumnChunkPages fromOffsetIndex(
      ParquetFooter footer, int rowGroup, int column, ByteBuffer offsetIndexBytes)
      throws IOException {
    requireNonNull(offsetIndexBytes, "offsetIndexBytes is null");
    ParquetLocation where = footer.location(rowGroup, column);
    OffsetIndex index;
    try {
      index = Util.readOffsetIndex(new BufferInputStream(offsetIndexBytes.duplicate()));
    } catch (IOException | RuntimeException e) {
      throw new CorruptParquetException(
          where, "offset index is not valid Thrift (%s)".formatted(e), e);
    }
    List<org.apache.parquet.format.PageLocation> found = index.getPage_locations();
    if (found == null) {
      throw new CorruptParquetException(where, "offset index has no page locations");
    }
    long chunkStart = chunkOffset(footer, rowGroup, column);
    long chunkEnd = chunkStart + chunkLength(footer, rowGroup, column);
    List<PageLocation> pages = new ArrayList<>(found.size());
    for (int i = 0; i < found.size(); i++) {
      org.apache.parquet.format.PageLocation page = found.get(i);
      long offset = page.getOffset();
      int size = page.getCompressed_page_size();
      if (offset < chunkStart || size <= 0 || offset > chunkEnd - size) {
        throw new CorruptParquetException(
            where.withPage(i, offset),
            "offset index puts page %d at offset %d with %d bytes, outside the column chunk [%d, %d)"
                .formatted(i, offset, size, chunkStart, chunkEnd));
      }
      pages.add(new PageLocation(offset, size, page.getFirst_row_index()));
    }
    long firstPage = pages.isEmpty() ? chunkEnd : pages.get(0).offset();
    long dictionaryOffset = firstPage > chunkStart ? chunkStart : -1;
    int dictionarySize = (int) (firstPage - chunkStart);
    return build(
        where,
        dictionaryOffset,
        dictionarySize,
        pages,
        footer.rowGroupRowCount(rowGroup),
        ColumnChunkPages.Source.OFFSET_INDEX,
        PageEncodings.fromEncodingStats(footer.columnChunk(rowGroup, column), pages.size()));
  }

  /**
   * Walks the page headers of a column chunk held in memory.
   *
   * @param chunk the chunk's bytes, from {@link #chunkOffset} for {@link #chunkLength} bytes
   * @param rowCounter counts the rows of data page v1 of repeated columns
   * @param maxRepetitionLevel the column's maximum repetition level (0 for flat columns)
   */
  public static ColumnChunkPages walk(
      ParquetFooter footer,
      int rowGroup,
      int column,
      ByteBuffer chunk,
      int maxRepetitionLevel,
      PageRowCounter rowCounter)
      throws IOException {
    requireNonNull(chunk, "chunk is null");
    requireNonNull(rowCounter, "rowCounter is null");
    ParquetLocation where = footer.location(rowGroup, column);
    ColumnMetaData metadata = footer.columnChunk(rowGroup, column);
    long chunkStart = ParquetFooter.chunkStart(metadata);
    long expectedValues = metadata.getNum_values();
    int rowCount = footer.rowGroupRowCount(rowGroup);
    ByteBuffer bytes = chunk.slice();
    List<PageLocation> pages = new ArrayList<>();
    List<Boolean> dictionaryEncoded = new ArrayList<>();
    long dictionaryOffset = -1;
    int dictionarySize = 0;
    long values = 0;
    long rows = 0;
    while (bytes.hasRemaining() && values < expectedValues) {
      int start = bytes.position();
      long offset = chunkStart + start;
      ParquetLocation page = where.withPage(pages.size(), offset);
      PageHeader header = readHeader(page, bytes);
      int size = pageSize(page, header, bytes, start);
      switch (header.getType()) {
        case DICTIONARY_PAGE -> {
          if (!pages.isEmpty() || dictionaryOffset >= 0) {
            throw new CorruptParquetException(
                page, "dictionary page follows a data or dictionary page in the same chunk");
          }
          dictionaryOffset = offset;
          dictionarySize = size;
        }
        case DATA_PAGE -> {
          DataPageHeader data = requireHeader(page, header.getData_page_header(), "DATA_PAGE");
          int pageRows =
              maxRepetitionLevel == 0
                  ? data.getNum_values()
                  : rowCounter.countRows(page, bytes.slice(start, size));
          pages.add(new PageLocation(offset, size, rows));
          dictionaryEncoded.add(PageEncodings.isDictionary(data.getEncoding()));
          values += data.getNum_values();
          rows += pageRows;
        }
        case DATA_PAGE_V2 -> {
          var data = requireHeader(page, header.getData_page_header_v2(), "DATA_PAGE_V2");
          pages.add(new PageLocation(offset, size, rows));
          dictionaryEncoded.add(PageEncodings.isDictionary(data.getEncoding()));
          values += data.getNum_values();
          rows += data.getNum_rows();
        }
        default -> {
          // INDEX_PAGE and future page types carry no rows of this column: step over them.
        }
      }
      bytes.position(start + size);
    }
    if (values != expectedValues || rows != rowCount) {
      throw new CorruptParquetException(
          where,
          "pages hold %d values in %d rows but the footer says %d values in %d rows"
              .formatted(values, rows, expectedValues, rowCount));
    }
    boolean[] encodings = new boolean[dictionaryEncoded.size()];
    for (int i = 0; i < encodings.length; i++) {
      encodings[i] = dictionaryEncoded.get(i);
    }
    return build(
        where,
        dictionaryOffset,
        dictionarySize,
        pages,
        rowCount,
        ColumnChunkPages.Source.HEADER_WALK,
        PageEncodings.of(encodings));
  }

  private static PageHeader readHeader(ParquetLocation page, ByteBuffer bytes)
      throws CorruptParquetException {
    try {
      return Util.readPageHeader(new BufferInputStream(bytes));
    } catch (IOException | RuntimeException e) {
      throw new CorruptParquetException(
          page, "page header is not valid Thrift or is truncated (%s)".formatted(e), e);
    }
  }

  /** Validates the header's sizes against the bytes left and returns header plus body length. */
  private static int pageSize(ParquetLocation page, PageHeader header, ByteBuffer bytes, int start)
      throws CorruptParquetException {
    int compressed = header.getCompressed_page_size();
    if (compressed < 0 || header.getUncompressed_page_size() < 0 || header.getType() == null) {
      throw new CorruptParquetException(
          page,
          "page header has type %s, compressed size %d, uncompressed size %d"
              .formatted(header.getType(), compressed, header.getUncompressed_page_size()));
    }
    if (compressed > bytes.remaining()) {
      throw new CorruptParquetException(
          page,
          "page of %d bytes runs past the end of its column chunk (%d bytes left)"
              .formatted(compressed, bytes.remaining()));
    }
    return bytes.position() - start + compressed;
  }

  private static <T> T requireHeader(ParquetLocation page, T header, String type)
      throws CorruptParquetException {
    if (header == null) {
      throw new CorruptParquetException(
          page, "page of type %s has no %s header".formatted(type, type));
    }
    return header;
  }

  private static ColumnChunkPages build(
      ParquetLocation where,
      long dictionaryOffset,
      int dictionarySize,
      List<PageLocation> pages,
      int rowCount,
      ColumnChunkPages.Source source,
      PageEncodings encodings)
      throws CorruptParquetException {
    try {
      return new ColumnChunkPages(
          dictionaryOffset, dictionarySize, pages, rowCount, source, encodings);
    } catch (IllegalArgumentException e) {
      throw new CorruptParquetException(
          where, "page locations contradict the footer: " + e.getMessage(), e);
    }
  }

  /**
   * Counts the rows that start in a data page v1 of a repeated column: the entries whose repetition
   * level is 0. Needs the page decompressed and its levels decoded, which is the decoder's work,
   * hence pluggable: {@code ColumnChunkDecoder::countRows} fits.
   */
  @FunctionalInterface
  public interface PageRowCounter {
    /**
     * @param page where the page is, for messages
     * @param pageIncludingHeader exactly the page's bytes, header first
     * @throws IOException when the page is corrupt or does not start at a row boundary
     */
    int countRows(ParquetLocation page, ByteBuffer pageIncludingHeader) throws IOException;
  }

  /** An InputStream over a ByteBuffer that advances the buffer's position as it is read. */
  private static final class BufferInputStream extends InputStream {
    private final ByteBuffer buffer;

    BufferInputStream(ByteBuffer buffer) {
      this.buffer = buffer;
    }

    @Override
    public int read() {
      return buffer.hasRemaining() ? buffer.get() & 0xff : -1;
    }

    @Override
    public int read(byte[] target, int offset, int length) {
      if (length == 0) {
        return 0;
      }
      if (!buffer.hasRemaining()) {
        return -1;
      }
      int count = Math.min(length, buffer.remaining());
      buffer.get(target, offset, count);
      return count;
    }

    @Override
    public int available() {
      return buffer.remaining();
    }
  }
}
