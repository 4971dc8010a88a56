package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a plan does with one row group.
 *
 * @param rowGroup the row group's ordinal in the file
 * @param firstRow the file row ordinal of its first row
 * @param access skip, scan or read a selection
 * @param rows the selected rows, relative to the row group
 * @param columns per requested column, the pages to read (empty when skipped)
 */
public record RowGroupPlan(
    int rowGroup,
    long firstRow,
    RowGroupAccess access,
    RowSelection.InRowGroup rows,
    List<ColumnChunkPlan> columns) {
  public RowGroupPlan {
    requireNonNull(access, "access is null");
    requireNonNull(rows, "rows is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    if (access == RowGroupAccess.SKIP && !columns.isEmpty()) {
      throw new IllegalArgumentException(
          "row group %d is skipped but plans %d columns".formatted(rowGroup, columns.size()));
    }
  }
}
