package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;

/**
 * Turns one page's levels and values into builder appends for the selected rows: a run of
 * consecutive selected rows is appended, the rows between runs are skipped (values skipped without
 * decoding where the encoding allows). Flat columns map row to level entry one to one; repeated
 * columns find rows where the repetition level is 0 and rebuild the lists. Created per page; not
 * thread safe.
 */
final class PageAssembler {
  private final ColumnSchema column;
  private final int maxDefinition;
  private final int maxRepetition;
  private final int[] repeatedDefinition; // [k] = definition level of repeated level k (1-based)
  private final int[] repetition;
  private final int[] definition;
  private final int[] rowStarts;
  private final ValueDecoder values;
  private final ColumnBatch.Builder out;

  /**
   * @param repetition the page's repetition levels, or null for a flat column
   * @param definition the page's definition levels, or null for a required column
   * @param rowStarts for repeated columns, the level index where each row starts, plus the end
   */
  PageAssembler(
      ColumnSchema column,
      int[] repeatedDefinition,
      int[] repetition,
      int[] definition,
      int[] rowStarts,
      ValueDecoder values,
      ColumnBatch.Builder out) {
    this.column = column;
    this.maxDefinition = column.maxDefinitionLevel();
    this.maxRepetition = column.maxRepetitionLevel();
    this.repeatedDefinition = repeatedDefinition;
    this.repetition = repetition;
    this.definition = definition;
    this.rowStarts = rowStarts;
    this.values = values;
    this.out = out;
  }

  /** Appends the selected rows of a page whose rows are {@code [0, rows)}. */
  void assemble(RowSelection.InPage selected, int rows) throws MalformedPageException {
    if (selected.isAll()) {
      emit(0, rows);
      return;
    }
    int first = selected.firstRow();
    int size = selected.size();
    if (maxRepetition == 0 && definition == null && size > 0) {
      // One value per row: the decoder can go straight to the selected positions.
      int last = selected.row(size - 1) - first;
      if (selected.row(0) < first || last >= rows) {
        throw new IllegalArgumentException(
            "Cannot select rows [%d, %d] of column %s: the page holds rows [%d, %d)"
                .formatted(
                    selected.row(0), last + first, column.dottedPath(), first, first + rows));
      }
      values.readPositions(selected, out);
      return;
    }
    int[] cursor = {0};
    SelectedRuns.forEach(
        selected,
        (start, stop) -> {
          if (start < cursor[0] || stop > rows) {
            throw new IllegalArgumentException(
                "Cannot select rows [%d, %d) of column %s: the page holds rows [%d, %d) and selections must ascend"
                    .formatted(
                        start + first, stop + first, column.dottedPath(), first, first + rows));
          }
          skip(cursor[0], start);
          emit(start, stop);
          cursor[0] = stop;
        });
  }

  private void skip(int fromRow, int toRow) throws MalformedPageException {
    if (fromRow == toRow) {
      return;
    }
    int from = levelIndex(fromRow);
    int to = levelIndex(toRow);
    int present = to - from;
    if (definition != null) {
      present = 0;
      for (int i = from; i < to; i++) {
        if (definition[i] == maxDefinition) {
          present++;
        }
      }
    }
    values.skip(present);
  }

  private int levelIndex(int row) {
    return maxRepetition == 0 ? row : rowStarts[row];
  }

  private void emit(int fromRow, int toRow) throws MalformedPageException {
    if (maxRepetition > 0) {
      emitRepeated(rowStarts[fromRow], rowStarts[toRow]);
    } else if (definition == null) {
      values.read(toRow - fromRow, out);
    } else {
      emitFlat(fromRow, toRow);
    }
  }

  private void emitFlat(int from, int to) throws MalformedPageException {
    int i = from;
    while (i < to) {
      int runEnd = i;
      if (definition[i] == maxDefinition) {
        while (runEnd < to && definition[runEnd] == maxDefinition) {
          runEnd++;
        }
        values.read(runEnd - i, out);
      } else {
        while (runEnd < to && definition[runEnd] != maxDefinition) {
          runEnd++;
        }
        out.appendNulls(runEnd - i);
      }
      i = runEnd;
    }
  }

  /**
   * Rebuilds the lists of level entries {@code [from, to)}, which start at a row boundary. An entry
   * with repetition level r continues the list open at level r and opens new lists at the levels
   * below it, as far as its definition level reaches; values of consecutive non-null leaves are
   * read together.
   */
  private void emitRepeated(int from, int to) throws MalformedPageException {
    int pending = 0;
    for (int i = from; i < to; i++) {
      int r = repetition[i];
      int d = definition == null ? maxDefinition : definition[i];
      boolean present = true;
      for (int k = Math.max(r, 1); k <= maxRepetition; k++) {
        if (k > r) {
          out.openList(k, d < repeatedDefinition[k] - 1);
        } else if (d < repeatedDefinition[k]) {
          throw new MalformedPageException(
              "level entry %d repeats at level %d but its definition level %d leaves that list empty"
                  .formatted(i, r, d));
        }
        if (d >= repeatedDefinition[k]) {
          out.addListElement(k);
        } else {
          present = false;
          break;
        }
      }
      if (!present) {
        continue;
      }
      if (d == maxDefinition) {
        pending++;
      } else {
        if (pending > 0) {
          values.read(pending, out);
          pending = 0;
        }
        out.appendNulls(1);
      }
    }
    if (pending > 0) {
      values.read(pending, out);
    }
  }
}
