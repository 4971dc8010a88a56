package io.shelfmark.parquet;

import static java.util.Objects.requireNonNull;

/**
 * Where in a Parquet file something happened, for error messages: the file, and as far as known the
 * row group, the column (dotted path) and the page. Unknown parts are {@code -1} (numbers) or the
 * empty string (column).
 *
 * <p>Immutable; the {@code withX} methods return narrowed copies, so a reader can hand a file-level
 * location to a row group and a column-level one to a decoder, which adds the page.
 *
 * @param file the data file's location (for example {@code s3://bucket/table/data/f.parquet})
 * @param rowGroup the row group ordinal in the file, or {@code -1}
 * @param column the column's dotted path, or {@code ""}
 * @param pageIndex the page ordinal within the column chunk (data pages, counting from 0), or
 *     {@code -1}
 * @param pageOffset the byte offset of the page header in the file, or {@code -1}
 */
public record ParquetLocation(
    String file, int rowGroup, String column, int pageIndex, long pageOffset) {
  public ParquetLocation {
    requireNonNull(file, "file is null");
    requireNonNull(column, "column is null");
    if (rowGroup < -1 || pageIndex < -1 || pageOffset < -1) {
      throw new IllegalArgumentException(
          "Cannot create location: negative row group %d, page %d or offset %d (use -1 for unknown)"
              .formatted(rowGroup, pageIndex, pageOffset));
    }
  }

  /** A location naming only the file. */
  public static ParquetLocation file(String file) {
    return new ParquetLocation(file, -1, "", -1, -1);
  }

  public ParquetLocation withRowGroup(int rowGroup) {
    return new ParquetLocation(file, rowGroup, column, pageIndex, pageOffset);
  }

  public ParquetLocation withColumn(String column) {
    return new ParquetLocation(file, rowGroup, column, pageIndex, pageOffset);
  }

  /** This location narrowed to one page; either argument may be {@code -1} when unknown. */
  public ParquetLocation withPage(int pageIndex, long pageOffset) {
    return new ParquetLocation(file, rowGroup, column, pageIndex, pageOffset);
  }

  /** For example {@code file s3://b/f.parquet, row group 2, column a.b, page 7 at offset 4096}. */
  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("file ").append(file);
    if (rowGroup >= 0) {
      text.append(", row group ").append(rowGroup);
    }
    if (!column.isEmpty()) {
      text.append(", column ").append(column);
    }
    if (pageIndex >= 0) {
      text.append(", page ").append(pageIndex);
    }
    if (pageOffset >= 0) {
      text.append(pageIndex >= 0 ? " at offset " : ", page at offset ").append(pageOffset);
    }
    return text.toString();
  }
}
