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
 */
public record TableFigures(
    String name,
    long rows,
    long dataFiles,
    long dataBytes,
    boolean reused,
    Double generateSeconds) {
  public TableFigures {
    requireNonNull(name, "name is null");
  }
}
