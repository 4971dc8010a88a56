package io.shelfmark.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * A Parquet file whose bytes contradict the format or its own metadata: truncated or corrupt pages,
 * checksum mismatches, sizes past the end of the file, row counts that do not add up.
 *
 * <p>The message reads {@code Cannot read Parquet <location>: <reason>}, where the location names
 * the file and, as far as known, the row group, column and page (see {@link ParquetLocation}).
 * Shared by the metadata, planning, I/O and decoding halves of the reader.
 */
public class CorruptParquetException extends IOException {
  private final ParquetLocation location;
  private final String reason;

  public CorruptParquetException(ParquetLocation location, String reason) {
    this(location, reason, null);
  }

  public CorruptParquetException(ParquetLocation location, String reason, Throwable cause) {
    super(
        "Cannot read Parquet %s: %s"
            .formatted(
                requireNonNull(location, "location is null"),
                requireNonNull(reason, "reason is null")),
        cause);
    this.location = location;
    this.reason = reason;
  }

  /** Where the corruption was found. */
  public ParquetLocation location() {
    return location;
  }

  /** What is wrong, without the location. */
  public String reason() {
    return reason;
  }

  public String file() {
    return location.file();
  }

  /** The column's dotted path, or {@code ""} when the problem is not tied to one column. */
  public String column() {
    return location.column();
  }

  /** The row group ordinal, or {@code -1}. */
  public int rowGroup() {
    return location.rowGroup();
  }

  /** The data page ordinal within its column chunk, or {@code -1}. */
  public int pageIndex() {
    return location.pageIndex();
  }

  /** The page header's byte offset in the file, or {@code -1}. */
  public long pageOffset() {
    return location.pageOffset();
  }
}
