package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.parquet.schema.ParquetSchema;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * A whole-file driver for the decoder in tests: reads a local file into memory, parses the footer
 * with {@code Util.readFileMetaData}, walks each column chunk's page headers from its start and
 * feeds the pages to a {@link ColumnChunkDecoder}. It stands in for the I/O half of the reader
 * (planning, ranged reads) so the decoder can be tested against whole files on its own; it checks
 * only what it needs to walk pages safely.
 */
final class TestingLocalParquetReader {
  private final String file;
  private final byte[] bytes;
  private final FileMetaData footer;
  private final ParquetSchema schema;

  private TestingLocalParquetReader(String file, byte[] bytes, FileMetaData footer)
      throws IOException {
    this.file = file;
    this.bytes = bytes;
    this.footer = footer;
    this.schema = ParquetSchema.from(file, footer.getSchema());
  }

  static TestingLocalParquetReader open(Path path) throws IOException {
    return open(path.toString(), Files.readAllBytes(path));
  }

  static TestingLocalParquetReader open(String file, byte[] bytes) throws IOException {
    ParquetLocation location = ParquetLocation.file(file);
    if (bytes.length < 12) {
      throw new CorruptParquetException(
          location, "file of %d bytes is too short".formatted(bytes.length));
    }
    String tail = new String(bytes, bytes.length - 4, 4, StandardCharsets.US_ASCII);
    if (tail.equals("PARE")) {
      throw new UnsupportedParquetException(
          location, "an encrypted footer", "decryption is not implemented");
    }
    if (!tail.equals("PAR1")) {
      throw new CorruptParquetException(location, "file does not end with PAR1");
    }
    int footerLength = LittleEndianBytes.getInt(bytes, bytes.length - 8);
    if (footerLength <= 0 || footerLength > bytes.length - 12) {
      throw new CorruptParquetException(
          location, "footer length %d does not fit the file".formatted(footerLength));
    }
    FileMetaData footer;
    try {
      footer =
          Util.readFileMetaData(
              new ByteArrayInputStream(bytes, bytes.length - 8 - footerLength, footerLength));
    } catch (IOException | RuntimeException e) {
      throw new CorruptParquetException(location, "cannot parse footer: " + e.getMessage(), e);
    }
    return new TestingLocalParquetReader(file, bytes, footer);
  }

  /** The file as named when opened. */
  String fileName() {
    return file;
  }

  FileMetaData footer() {
    return footer;
  }

  ParquetSchema schema() {
    return schema;
  }

  int rowGroups() {
    return footer.getRow_groupsSize();
  }

  long rowCount(int rowGroup) {
    return footer.getRow_groups().get(rowGroup).getNum_rows();
  }

  /** Reads one column chunk, all rows. */
  ColumnBatch read(int rowGroup, int column) throws IOException {
    return read(rowGroup, column, RowSelection.InRowGroup.all((int) rowCount(rowGroup)));
  }

  /**
   * Reads the selected rows of one column chunk. Pages with no selected row are walked over (their
   * headers parsed) but not handed to the decoder.
   */
  ColumnBatch read(int rowGroup, int column, RowSelection.InRowGroup selection) throws IOException {
    ColumnSchema columnSchema = schema.column(column);
    ParquetLocation location =
        ParquetLocation.file(file).withRowGroup(rowGroup).withColumn(columnSchema.dottedPath());
    RowGroup group = footer.getRow_groups().get(rowGroup);
    if (column >= group.getColumnsSize()) {
      throw new CorruptParquetException(
          location, "row group has %d column chunks".formatted(group.getColumnsSize()));
    }
    ColumnChunk chunk = group.getColumns().get(column);
    if (chunk.isSetCrypto_metadata() || chunk.isSetEncrypted_column_metadata()) {
      throw new UnsupportedParquetException(
          location, "an encrypted column", "decryption is not implemented");
    }
    if (!chunk.isSetMeta_data()) {
      throw new CorruptParquetException(location, "column chunk has no metadata");
    }
    ColumnMetaData meta = chunk.getMeta_data();
    if (group.getNum_rows() == 0) {
      // Writers leave offsets of empty chunks unset or zero: there is nothing to walk.
      return ColumnBatch.builder(columnSchema).build();
    }
    long start = meta.getData_page_offset();
    // A dictionary page offset of 0 is a known writer bug meaning "not set".
    if (meta.isSetDictionary_page_offset()
        && meta.getDictionary_page_offset() > 0
        && meta.getDictionary_page_offset() < start) {
      start = meta.getDictionary_page_offset();
    }
    long end = start + meta.getTotal_compressed_size();
    if (start < 4 || meta.getTotal_compressed_size() < 0 || end > bytes.length - 8) {
      throw new CorruptParquetException(
          location,
          "column chunk [%d, %d) lies outside the file of %d bytes"
              .formatted(start, end, bytes.length));
    }
    long rows = group.getNum_rows();
    ColumnChunkDecoder decoder = new ColumnChunkDecoder(columnSchema, meta.getCodec(), location);
    ColumnBatch.Builder builder = ColumnBatch.builder(columnSchema);
    long position = start;
    int firstRow = 0;
    int pageIndex = 0;
    while (position < end && firstRow < rows) {
      ByteArrayInputStream in =
          new ByteArrayInputStream(bytes, (int) position, (int) (end - position));
      PageHeader header;
      try {
        header = Util.readPageHeader(in);
      } catch (IOException | RuntimeException e) {
        throw new CorruptParquetException(
            location.withPage(pageIndex, position),
            "cannot parse page header: " + e.getMessage(),
            e);
      }
      long headerLength = (end - position) - in.available();
      long pageLength = headerLength + header.getCompressed_page_size();
      if (header.getCompressed_page_size() < 0 || position + pageLength > end) {
        throw new CorruptParquetException(
            location.withPage(pageIndex, position),
            "page of %d bytes runs past the column chunk's end at %d".formatted(pageLength, end));
      }
      ByteBuffer page = ByteBuffer.wrap(bytes, (int) position, (int) pageLength).slice();
      if (header.getType() == PageType.DICTIONARY_PAGE) {
        decoder.readDictionaryPage(position, page);
      } else if (header.getType() == PageType.DATA_PAGE
          || header.getType() == PageType.DATA_PAGE_V2) {
        int pageRows = decoder.countRows(pageIndex, position, page);
        if (firstRow + (long) pageRows > rows) {
          throw new CorruptParquetException(
              location.withPage(pageIndex, position),
              "pages hold more rows than the row group's %d".formatted(rows));
        }
        RowSelection.InPage selected = selection.inPage(firstRow, pageRows);
        if (selected.size() > 0) {
          decoder.readDataPage(pageIndex, position, page, firstRow, selected, builder);
        }
        firstRow += pageRows;
        pageIndex++;
      }
      position += pageLength;
    }
    if (firstRow != rows) {
      throw new CorruptParquetException(
          location, "pages hold %d rows but the row group has %d".formatted(firstRow, rows));
    }
    return builder.build();
  }
}
