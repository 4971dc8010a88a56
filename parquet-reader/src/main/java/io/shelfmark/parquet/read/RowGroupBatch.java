package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import java.util.List;

/**
 * The decoded selected rows of one row group: one {@link ColumnBatch} per requested leaf column, in
 * the order of {@link ParquetRead#columns()}, each holding {@code rows.size()} rows.
 *
 * @param rowGroup the row group's ordinal in the file
 * @param firstRow the file row ordinal of the row group's first row; selected row {@code i} is file
 *     row {@code firstRow + rows.toArray()[i]}
 * @param rows the selected rows, relative to the row group
 * @param columns one batch per requested leaf column
 */
public record RowGroupBatch(
    int rowGroup, long firstRow, RowSelection.InRowGroup rows, List<ColumnBatch> columns) {
  public RowGroupBatch {
    requireNonNull(rows, "rows is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
  }

  /** The batch of the leaf column with this dotted path. */
  public ColumnBatch column(String dottedPath) {
    for (ColumnBatch column : columns) {
      if (column.column().dottedPath().equals(dottedPath)) {
        return column;
      }
    }
    throw new IllegalArgumentException(
        "Cannot find column %s in the batch of row group %d: it holds %s"
            .formatted(
                dottedPath,
                rowGroup,
                columns.stream().map(batch -> batch.column().dottedPath()).toList()));
  }
}
