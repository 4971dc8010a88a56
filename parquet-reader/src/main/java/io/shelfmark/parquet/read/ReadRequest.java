package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.spi.Location;
import java.util.List;
import java.util.Optional;

/**
 * One read of one Parquet data file: where it is, what is already known about it, which columns and
 * which rows.
 *
 * @param file the data file
 * @param fileSize its length in bytes (from the catalog: no HEAD is issued)
 * @param footer the footer when already known (from a segment), else it is read
 * @param pageLocations page locations when already known (from a segment); chunks they do not cover
 *     are located from the OffsetIndex or by walking their page headers
 * @param columns the columns to read: leaf dotted paths ({@code dimensions.key_value.key}) or field
 *     paths standing for all their leaves ({@code dimensions} for a map's key and value)
 * @param rows the rows to read
 * @param keptDictionaryPages dictionary pages the caller holds (kept with a segment): neither
 *     fetched nor counted in the plan's bytes
 */
public record ReadRequest(
    Location file,
    long fileSize,
    Optional<ParquetFooter> footer,
    Optional<FilePageLocations> pageLocations,
    List<String> columns,
    RowSelection rows,
    KeptDictionaryPages keptDictionaryPages) {
  public ReadRequest {
    requireNonNull(keptDictionaryPages, "keptDictionaryPages is null");
    requireNonNull(file, "file is null");
    requireNonNull(footer, "footer is null");
    requireNonNull(pageLocations, "pageLocations is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(rows, "rows is null");
    if (fileSize < 0) {
      throw new IllegalArgumentException("Cannot read %s: size %d".formatted(file, fileSize));
    }
    if (columns.isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot read %s: no columns requested (name at least one)".formatted(file));
    }
    if (footer.isPresent() && footer.get().fileSize() != fileSize) {
      throw new IllegalArgumentException(
          "Cannot read %s of %d bytes with a footer read from a file of %d bytes"
              .formatted(file, fileSize, footer.get().fileSize()));
    }
  }

  /** A request without kept dictionary pages. */
  public ReadRequest(
      Location file,
      long fileSize,
      Optional<ParquetFooter> footer,
      Optional<FilePageLocations> pageLocations,
      List<String> columns,
      RowSelection rows) {
    this(file, fileSize, footer, pageLocations, columns, rows, KeptDictionaryPages.NONE);
  }

  /** This request, with {@code kept} standing in for the dictionary pages it holds. */
  public ReadRequest withKeptDictionaryPages(KeptDictionaryPages kept) {
    return new ReadRequest(file, fileSize, footer, pageLocations, columns, rows, kept);
  }

  /** A request that reads the footer and locates pages itself. */
  public static ReadRequest of(
      Location file, long fileSize, List<String> columns, RowSelection rows) {
    return new ReadRequest(file, fileSize, Optional.empty(), Optional.empty(), columns, rows);
  }

  /** A request with footer and page locations known (the server's path: both from a segment). */
  public static ReadRequest of(
      Location file,
      ParquetFooter footer,
      FilePageLocations pageLocations,
      List<String> columns,
      RowSelection rows) {
    return new ReadRequest(
        file, footer.fileSize(), Optional.of(footer), Optional.of(pageLocations), columns, rows);
  }
}
