package io.shelfmark.parquet.metadata;

/**
 * Where one data page of a column chunk lies and which rows it starts with, as in the Parquet
 * OffsetIndex.
 *
 * @param offset the byte offset of the page header in the file
 * @param compressedSize the page's length in bytes, header included
 * @param firstRowIndex the row (relative to the row group) of the page's first value
 */
public record PageLocation(long offset, int compressedSize, long firstRowIndex) {
  public PageLocation {
    if (offset < 0 || compressedSize <= 0 || firstRowIndex < 0) {
      throw new IllegalArgumentException(
          "Cannot create page location: offset %d, size %d, first row %d (offset and first row must not be negative, size must be positive)"
              .formatted(offset, compressedSize, firstRowIndex));
    }
  }

  /** The offset just past the page. */
  public long end() {
    return offset + compressedSize;
  }
}
