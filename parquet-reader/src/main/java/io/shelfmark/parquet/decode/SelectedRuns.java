package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.plan.RowSelection;

/** The selected rows of a page as runs of consecutive rows, relative to the page's first row. */
final class SelectedRuns {
  /** Receives one run of selected rows {@code [start, stop)}, in ascending order. */
  @FunctionalInterface
  interface RunConsumer {
    void accept(int start, int stop) throws MalformedPageException;
  }

  private SelectedRuns() {}

  /** Hands {@code consumer} each run of consecutive selected rows, first to last. */
  static void forEach(RowSelection.InPage selected, RunConsumer consumer)
      throws MalformedPageException {
    int first = selected.firstRow();
    int size = selected.size();
    int i = 0;
    while (i < size) {
      int start = selected.row(i) - first;
      int stop = start + 1;
      i++;
      while (i < size && selected.row(i) - first == stop) {
        stop++;
        i++;
      }
      consumer.accept(start, stop);
    }
  }
}
