package io.shelfmark.parquet.read;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Turns decoded batches into plain rows ({@code List<Object>} per selected row, file row ordinal
 * first) so tests compare whole rows with one assertion and failures show the row.
 */
final class TestingRows {
  private TestingRows() {}

  /** Rows of every batch: file row, then each column's value (a List for repeated columns). */
  static List<List<Object>> rows(List<RowGroupBatch> batches) {
    List<List<Object>> rows = new ArrayList<>();
    for (RowGroupBatch batch : batches) {
      int[] selected = batch.rows().toArray();
      for (int i = 0; i < selected.length; i++) {
        List<Object> row = new ArrayList<>();
        row.add(batch.firstRow() + selected[i]);
        for (ColumnBatch column : batch.columns()) {
          row.add(value(column, i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** The rows {@link TestingParquetFiles} wrote at these ordinals, for the given columns. */
  static List<List<Object>> expected(RoaringBitmap ordinals, List<String> columns) {
    List<List<Object>> rows = new ArrayList<>();
    for (int ordinal : ordinals) {
      long id = ordinal;
      List<Object> row = new ArrayList<>();
      row.add(id);
      for (String column : columns) {
        row.add(
            switch (column) {
              case "id" -> id;
              case "name" -> TestingParquetFiles.name(id);
              case "score" -> TestingParquetFiles.score(id);
              case "tags" -> Arrays.asList((Object[]) TestingParquetFiles.tags(id));
              default -> throw new IllegalArgumentException("no fixture column " + column);
            });
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(ColumnBatch column, int row) {
    if (column.repetitionLevels() == 0) {
      return column.isNull(row) ? null : scalar(column.values(), row);
    }
    int[] offsets = column.offsets(1);
    boolean[] nullLists = column.listNulls(1);
    if (nullLists != null && nullLists[row]) {
      return null;
    }
    List<Object> list = new ArrayList<>();
    for (int entry = offsets[row]; entry < offsets[row + 1]; entry++) {
      list.add(column.isNull(entry) ? null : scalar(column.values(), entry));
    }
    return list;
  }

  private static Object scalar(PrimitiveValues values, int index) {
    return switch (values.type()) {
      case BOOLEAN -> values.booleans()[index];
      case INT32 -> values.ints()[index];
      case INT64 -> values.longs()[index];
      case FLOAT -> values.floats()[index];
      case DOUBLE -> values.doubles()[index];
      default -> values.string(index);
    };
  }
}
