package io.shelfmark.parquet.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Util;

/**
 * The parsed and validated footer of one Parquet file, with the raw footer bytes kept so a segment
 * can store them and a query never GETs the footer again.
 *
 * <p>Validation on construction (each failure a {@link CorruptParquetException} naming the file
 * and, where it applies, the row group and column): the row groups' row counts add up to the
 * file's; every row group has one column chunk per leaf column; every column chunk has metadata and
 * lies between the leading magic and the footer. Encrypted files are refused with {@link
 * UnsupportedParquetException}.
 *
 * <p>Immutable by contract: {@link #metadata()} returns the parsed Thrift structure, which callers
 * must not modify. Thread safe for reading.
 */
public final class ParquetFooter {
  /** The length of {@code PAR1}, which opens and closes every unencrypted Parquet file. */
  static final int MAGIC_LENGTH = 4;

  /** Magic, footer length and magic: the smallest tail a Parquet file can have. */
  static final int TAIL_LENGTH = 8;

  private final String file;
  private final long fileSize;
  private final byte[] bytes;
  private final FileMetaData metadata;
  private final long[] rowGroupFirstRows;
  private final long rowCount;
  private final int leafColumnCount;

  private ParquetFooter(String file, long fileSize, byte[] bytes, FileMetaData metadata)
      throws IOException {
    this.file = file;
    this.fileSize = fileSize;
    this.bytes = bytes;
    this.metadata = metadata;
    this.leafColumnCount = countLeaves(file, metadata.getSchema());
    this.rowGroupFirstRows = validateRowGroups();
    int last = rowGroupFirstRows.length - 1;
    this.rowCount =
        last < 0 ? 0 : rowGroupFirstRows[last] + metadata.getRow_groups().get(last).getNum_rows();
  }

  /**
   * Parses the Thrift-encoded {@code FileMetaData} found between a file's data and its trailing
   * length and magic, and validates it against the file's size.
   *
   * @param file the data file's location, for messages
   * @param fileSize the file's length in bytes
   * @param footerBytes exactly the footer (without length and magic); copied
   */
  public static ParquetFooter parse(String file, long fileSize, byte[] footerBytes)
      throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(footerBytes, "footerBytes is null");
    ParquetLocation where = ParquetLocation.file(file);
    long dataEnd = fileSize - TAIL_LENGTH - footerBytes.length;
    if (dataEnd < MAGIC_LENGTH) {
      throw new CorruptParquetException(
          where,
          "footer of %d bytes does not fit in a file of %d bytes"
              .formatted(footerBytes.length, fileSize));
    }
    byte[] copy = footerBytes.clone();
    FileMetaData metadata;
    try {
      // The message size limit stops a hostile length field inside the Thrift structure from
      // allocating more than the footer itself could hold.
      metadata = Util.readFileMetaData(new ByteArrayInputStream(copy), Math.max(copy.length, 1));
    } catch (IOException | RuntimeException e) {
      throw new CorruptParquetException(
          where,
          "footer of %d bytes is not valid Thrift metadata (%s)".formatted(copy.length, e),
          e);
    }
    if (metadata.isSetEncryption_algorithm()) {
      throw new UnsupportedParquetException(
          where, "encryption (plaintext footer, encrypted columns)", "decrypt the file first");
    }
    return new ParquetFooter(file, fileSize, copy, metadata);
  }

  /** The data file's location, as used in messages. */
  public String file() {
    return file;
  }

  /** The data file's length in bytes. */
  public long fileSize() {
    return fileSize;
  }

  /** The raw footer, as stored in the file (no length or magic); a read-only view. */
  public ByteBuffer bytes() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  /** The footer's length in bytes. */
  public int length() {
    return bytes.length;
  }

  /** The parsed metadata; do not modify it. */
  public FileMetaData metadata() {
    return metadata;
  }

  /** The file's schema elements, depth first, as {@code ParquetSchema.from} takes them. */
  public List<SchemaElement> schema() {
    return metadata.getSchema();
  }

  /** The byte offset where the footer starts; column data must end before it. */
  public long footerOffset() {
    return fileSize - TAIL_LENGTH - bytes.length;
  }

  /** The number of rows in the file: the sum of its row groups' counts. */
  public long rowCount() {
    return rowCount;
  }

  public int rowGroupCount() {
    return rowGroupFirstRows.length;
  }

  /** The number of leaf (primitive) columns; every row group has this many column chunks. */
  public int columnCount() {
    return leafColumnCount;
  }

  public RowGroup rowGroup(int rowGroup) {
    return metadata.getRow_groups().get(rowGroup);
  }

  /** The file row ordinal of the row group's first row. */
  public long rowGroupFirstRow(int rowGroup) {
    return rowGroupFirstRows[rowGroup];
  }

  /** The number of rows in the row group (validated to fit an int). */
  public int rowGroupRowCount(int rowGroup) {
    return (int) rowGroup(rowGroup).getNum_rows();
  }

  /** The column chunk metadata (validated present). */
  public ColumnMetaData columnChunk(int rowGroup, int column) {
    return rowGroup(rowGroup).getColumns().get(column).getMeta_data();
  }

  /** The dotted path of the leaf column with this index, from the first row group or schema. */
  public String columnPath(int column) {
    if (rowGroupCount() > 0) {
      return String.join(".", columnChunk(0, column).getPath_in_schema());
    }
    return "#" + column;
  }

  /**
   * Checks that a chunk's page index structure ({@code what}: its OffsetIndex or ColumnIndex) at
   * {@code offset}, {@code length} bytes long, lies inside the file and before the footer.
   *
   * @throws CorruptParquetException naming the file, row group and column when it does not
   */
  public void checkIndexRange(int rowGroup, int column, String what, long offset, long length)
      throws CorruptParquetException {
    if (offset < MAGIC_LENGTH
        || length <= 0
        || offset > footerOffset()
        || length > footerOffset() - offset) {
      throw new CorruptParquetException(
          location(rowGroup, column),
          "%s at offset %d of %d bytes does not lie before the footer at offset %d"
              .formatted(what, offset, length, footerOffset()));
    }
  }

  /** A location naming this file, row group and column, for messages. */
  public ParquetLocation location(int rowGroup, int column) {
    ParquetLocation where = ParquetLocation.file(file).withRowGroup(rowGroup);
    return column < 0 ? where : where.withColumn(columnPath(column));
  }

  /** The chunk's first byte: its dictionary page when it has one, else its first data page. */
  public static long chunkStart(ColumnMetaData chunk) {
    long data = chunk.getData_page_offset();
    // Some writers record dictionary_page_offset 0 (or leave it past the data) when there is no
    // dictionary or when data_page_offset already points at it; only a smaller positive offset
    // can be where the chunk starts.
    if (chunk.isSetDictionary_page_offset()) {
      long dictionary = chunk.getDictionary_page_offset();
      if (dictionary > 0 && dictionary < data) {
        return dictionary;
      }
    }
    return data;
  }

  private long[] validateRowGroups() throws IOException {
    List<RowGroup> rowGroups = metadata.getRow_groups();
    ParquetLocation where = ParquetLocation.file(file);
    if (rowGroups == null) {
      throw new CorruptParquetException(where, "footer has no row group list");
    }
    if (metadata.getNum_rows() < 0) {
      throw new CorruptParquetException(
          where, "footer says the file has %d rows".formatted(metadata.getNum_rows()));
    }
    long[] firstRows = new long[rowGroups.size()];
    long rows = 0;
    for (int i = 0; i < rowGroups.size(); i++) {
      RowGroup rowGroup = rowGroups.get(i);
      firstRows[i] = rows;
      long count = rowGroup.getNum_rows();
      if (count < 0 || count > Integer.MAX_VALUE) {
        throw new CorruptParquetException(
            where.withRowGroup(i),
            "row group has %d rows (expected 0 to %d)".formatted(count, Integer.MAX_VALUE));
      }
      rows += count;
      validateColumnChunks(i, rowGroup, count == 0);
    }
    // Some writers (old Impala and parquet-mr builds) leave FileMetaData.num_rows at 0; readers
    // take the row groups' counts then, as parquet-java and DuckDB do. Any other mismatch is a lie.
    if (rows != metadata.getNum_rows() && metadata.getNum_rows() != 0) {
      throw new CorruptParquetException(
          where,
          "row groups hold %d rows but the footer says the file has %d"
              .formatted(rows, metadata.getNum_rows()));
    }
    return firstRows;
  }

  /**
   * @param empty whether the row group holds no rows: its chunks are never read, and some writers
   *     record offset 0 for them, so their byte ranges are not checked
   */
  private void validateColumnChunks(int index, RowGroup rowGroup, boolean empty)
      throws IOException {
    List<ColumnChunk> columns = rowGroup.getColumns();
    int found = columns == null ? 0 : columns.size();
    if (found != leafColumnCount) {
      throw new CorruptParquetException(
          ParquetLocation.file(file).withRowGroup(index),
          "row group has %d column chunks but the schema has %d leaf columns"
              .formatted(found, leafColumnCount));
    }
    long dataEnd = footerOffset();
    for (int c = 0; c < found; c++) {
      ColumnChunk column = columns.get(c);
      ParquetLocation where = ParquetLocation.file(file).withRowGroup(index);
      if (column.isSetCrypto_metadata() || column.isSetEncrypted_column_metadata()) {
        throw new UnsupportedParquetException(
            where.withColumn("#" + c), "encrypted column", "decrypt the file first");
      }
      if (!column.isSetMeta_data()) {
        throw new CorruptParquetException(
            where.withColumn("#" + c), "column chunk has no metadata");
      }
      ColumnMetaData chunk = column.getMeta_data();
      if (chunk.getPath_in_schema() == null || chunk.getPath_in_schema().isEmpty()) {
        throw new CorruptParquetException(
            where.withColumn("#" + c), "column chunk has no path in schema");
      }
      where = where.withColumn(String.join(".", chunk.getPath_in_schema()));
      long start = chunkStart(chunk);
      long size = chunk.getTotal_compressed_size();
      if (!empty
          && (start < MAGIC_LENGTH || size < 0 || start > dataEnd || size > dataEnd - start)) {
        throw new CorruptParquetException(
            where,
            ("column chunk at offset %d of %d bytes does not lie between the leading magic and"
                    + " the footer at offset %d (file size %d)")
                .formatted(start, size, dataEnd, fileSize));
      }
      if (chunk.getCodec() == null || chunk.getType() == null) {
        throw new CorruptParquetException(
            where, "column chunk metadata lacks its codec or physical type");
      }
      if (chunk.getNum_values() < 0) {
        throw new CorruptParquetException(
            where, "column chunk has %d values".formatted(chunk.getNum_values()));
      }
    }
  }

  private static int countLeaves(String file, List<SchemaElement> schema) throws IOException {
    if (schema == null || schema.isEmpty()) {
      throw new CorruptParquetException(ParquetLocation.file(file), "footer has no schema");
    }
    int leaves = 0;
    // The first element is the root; primitive (leaf) elements are the ones with a physical type.
    for (int i = 1; i < schema.size(); i++) {
      if (schema.get(i).isSetType()) {
        leaves++;
      }
    }
    return leaves;
  }

  @Override
  public String toString() {
    return "ParquetFooter[%s, %d bytes, %d rows in %d row groups]"
        .formatted(file, bytes.length, rowCount(), rowGroupCount());
  }
}
