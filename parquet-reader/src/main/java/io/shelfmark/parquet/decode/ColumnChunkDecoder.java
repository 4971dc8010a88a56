package io.shelfmark.parquet.decode;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.format.CompressionCodec;

/**
 * Decodes the pages of one column chunk (one column in one row group) into a {@link
 * ColumnBatch.Builder}, appending only selected rows.
 *
 * <h2>Lifecycle</h2>
 *
 * <ol>
 *   <li>Create one decoder per column chunk, with the chunk's codec ({@code ColumnMetaData.codec})
 *       and a location naming the file, row group and column.
 *   <li>If the chunk has a dictionary page, pass it to {@link #readDictionaryPage} before any data
 *       page that needs it.
 *   <li>Pass the chosen data pages in file order to {@link #readDataPage}, all into the same
 *       builder (or one builder per row group: the caller chooses).
 * </ol>
 *
 * <p>Every page is handed in as exactly its bytes {@code [page header start, page end)}, as given
 * by the OffsetIndex ({@code offset}, {@code compressed_page_size}, which includes the header) or
 * by a header walk. The decoder parses the header itself, verifies the CRC when present,
 * decompresses, decodes levels and values, and skips unselected rows without decoding their values
 * where the encoding allows. Input buffers are only read, never retained after a call returns (a
 * dictionary is copied into its decoded form).
 *
 * <p>Not thread safe: use one decoder per column chunk and thread. Different decoders are
 * independent.
 *
 * <h2>Errors</h2>
 *
 * {@link io.shelfmark.parquet.CorruptParquetException} for truncated or corrupt pages, checksum
 * mismatches and counts that do not add up; {@link UnsupportedParquetException} for encodings,
 * codecs or page types this reader does not implement. Both name the file, row group, column and
 * page. No allocation is sized by a file field before the field is checked against the bytes
 * present.
 */
public final class ColumnChunkDecoder {
  private final ColumnSchema column;
  private final CompressionCodec codec;
  private final ParquetLocation location;
  private PrimitiveValues dictionary;

  /**
   * @param column the column, from {@code ParquetSchema}
   * @param codec the column chunk's codec ({@code ColumnMetaData.codec})
   * @param location the file, row group and column, for error messages
   */
  public ColumnChunkDecoder(ColumnSchema column, CompressionCodec codec, ParquetLocation location) {
    this.column = requireNonNull(column, "column is null");
    this.codec = requireNonNull(codec, "codec is null");
    this.location = requireNonNull(location, "location is null");
  }

  public ColumnSchema column() {
    return column;
  }

  /** The decoded dictionary, or {@code null} before {@link #readDictionaryPage}. */
  public PrimitiveValues dictionary() {
    return dictionary;
  }

  /**
   * Decodes the chunk's dictionary page; later dictionary-encoded data pages refer to it.
   *
   * @param pageIncludingHeader exactly the page's bytes, header first
   */
  public void readDictionaryPage(ByteBuffer pageIncludingHeader) throws IOException {
    throw notYet();
  }

  /**
   * Decodes one data page (v1 or v2) and appends its selected rows to {@code out}.
   *
   * @param pageIncludingHeader exactly the page's bytes, header first
   * @param firstRowOfPage the page's first row, relative to the row group (the OffsetIndex's {@code
   *     first_row_index}); must equal {@code selectedRows.firstRow()}
   * @param selectedRows the rows to append; {@code selectedRows.rowCount()} must equal the number
   *     of rows the page holds, else the page is reported corrupt (counts that do not add up)
   * @param out the builder of this column's batch
   * @return the number of rows the page holds
   */
  public int readDataPage(
      ByteBuffer pageIncludingHeader,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    return readDataPage(-1, -1, pageIncludingHeader, firstRowOfPage, selectedRows, out);
  }

  /**
   * As {@link #readDataPage(ByteBuffer, long, RowSelection.InPage, ColumnBatch.Builder)}, with the
   * page's ordinal in the chunk and its header's offset in the file for error messages (either may
   * be -1 when unknown).
   */
  public int readDataPage(
      int pageIndex,
      long pageOffset,
      ByteBuffer pageIncludingHeader,
      long firstRowOfPage,
      RowSelection.InPage selectedRows,
      ColumnBatch.Builder out)
      throws IOException {
    throw notYet();
  }

  /**
   * The number of rows a data page holds, for callers that walk page headers and need each page's
   * first row: the header's {@code num_rows} for v2 pages, {@code num_values} for v1 pages of flat
   * columns, and the count of repetition level 0 for v1 pages of repeated columns (which
   * decompresses the levels).
   */
  public int countRows(ByteBuffer pageIncludingHeader) throws IOException {
    throw notYet();
  }

  private UnsupportedParquetException notYet() {
    return new UnsupportedParquetException(
        location,
        "decoding column " + column.dottedPath() + " with codec " + codec,
        "the decoder is being implemented");
  }
}
