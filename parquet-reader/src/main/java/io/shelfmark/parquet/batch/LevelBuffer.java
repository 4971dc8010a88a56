package io.shelfmark.parquet.batch;

import java.util.Arrays;

/**
 * The lists of one repetition level while a batch is built: where each list starts among the
 * level's elements, whether it is null, and the number of elements added so far. Not thread safe.
 */
final class LevelBuffer {
  private int[] starts = new int[16];
  private boolean[] nulls;
  private int lists;
  private int elements;
  private int expectedLists;

  /** Hints that about {@code lists} lists will be opened in all: growth jumps to that size. */
  void expect(int lists) {
    expectedLists = Math.max(0, lists);
  }

  int lists() {
    return lists;
  }

  int elements() {
    return elements;
  }

  void open(boolean isNull) {
    if (lists == starts.length) {
      starts =
          Arrays.copyOf(
              starts, Math.max(ColumnBatch.newCapacity(starts.length, lists + 1L), expectedLists));
    }
    starts[lists] = elements;
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

  /** The offsets, one per list plus the end (the number of elements). */
  int[] offsets() {
    int[] offsets = Arrays.copyOf(starts, lists + 1);
    offsets[lists] = elements;
    return offsets;
  }

  /** Null flags per list, or null when no list is null. */
  boolean[] nulls() {
    return nulls == null ? null : Arrays.copyOf(nulls, lists);
  }
}
