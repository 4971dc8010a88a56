package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * The benchmark table as generated.
 *
 * @param name its SQL name
 * @param rows rows
 * @param dataFiles Parquet data files
 * @param dataBytes their total size
 * @param reused whether an identical table from an earlier run was reused
 * @param generateSeconds how long generating took; null when reused
 * @param writer which writer laid out the data files ({@code java} or {@code pyarrow}); a report
 *     written before writers reads as {@code java}
 * @param createdBy a data file's footer {@code created_by} (the library that wrote it); empty when
 *     unknown
 */
public record TableFigures(
    String name,
    long rows,
    long dataFiles,
    long dataBytes,
    boolean reused,
    Double generateSeconds,
    String writer,
    String createdBy) {
  public TableFigures {
    requireNonNull(name, "name is null");
    writer = writer == null ? "java" : writer;
    createdBy = createdBy == null ? "" : createdBy;
  }

  /** The figures of a table written by the Java writer, its footers unread. */
  public TableFigures(
      String name,
      long rows,
      long dataFiles,
      long dataBytes,
      boolean reused,
      Double generateSeconds) {
    this(name, rows, dataFiles, dataBytes, reused, generateSeconds, "java", "");
  }
}
