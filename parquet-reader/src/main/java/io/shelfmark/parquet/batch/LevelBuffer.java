package io.shelfmark.parquet.batch;

import java.util.Arrays;

/**
 * The lists of one repetition level while a batch is built: the start offset of each list in the
 * next level's entries, whether it is null, and (for levels above the innermost) the number of
 * elements added so far. Not thread safe.
 */
final class LevelBuffer {
  private int[] starts = new int[16];
  private boolean[] nulls;
  private int lists;
  private int elements;

  int lists() {
    return lists;
  }

  int elements() {
    return elements;
  }

  void open(int start, boolean isNull) {
    if (lists == starts.length) {
      starts = Arrays.copyOf(starts, ColumnBatch.newCapacity(starts.length, lists + 1L));
    }
    starts[lists] = start;
    if (isNull) {
      if (nulls == null) {
        nulls = new boolean[starts.length];
      }
    }
    if (nulls != null) {
      if (nulls.length < starts.length) {
        nulls = Arrays.copyOf(nulls, starts.length);
      }
      nulls[lists] = isNull;
    }
    lists++;
  }

  void addElement() {
    elements++;
  }

  /** The offsets, one per list plus the end, {@code end} being the next level's entry count. */
  int[] offsets(int end) {
    int[] offsets = Arrays.copyOf(starts, lists + 1);
    offsets[lists] = end;
    return offsets;
  }

  /** Null flags per list, or null when no list is null. */
  boolean[] nulls() {
    return nulls == null ? null : Arrays.copyOf(nulls, lists);
  }
}
