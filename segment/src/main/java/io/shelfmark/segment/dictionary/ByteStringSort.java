package io.shelfmark.segment.dictionary;

import java.util.Arrays;

/**
 * Sorts indexes of byte strings held in one arena by the strings' unsigned byte order, with a
 * multikey (three-way radix) quicksort: each step partitions on one byte, so the prefixes that
 * dictionary values share ({@code node-01…}) are read once per level rather than once per
 * comparison, and no index is boxed. Ties cannot occur: the strings are distinct.
 */
final class ByteStringSort {
  /** Ranges this short are finished by insertion sort. */
  private static final int INSERTION = 12;

  private ByteStringSort() {}

  /** Sorts {@code order} (indexes into {@code offsets}) in place. */
  static void sort(int[] order, byte[] arena, int[] offsets) {
    sort(order, 0, order.length, 0, arena, offsets);
  }

  /** Sorts {@code order[from..to)}, whose strings all share their first {@code depth} bytes. */
  private static void sort(int[] order, int from, int to, int depth, byte[] arena, int[] offsets) {
    while (to - from > INSERTION) {
      int pivot =
          median(
              byteAt(order[from], depth, arena, offsets),
              byteAt(order[(from + to) >>> 1], depth, arena, offsets),
              byteAt(order[to - 1], depth, arena, offsets));
      // Three-way partition: [from, less) below, [less, greater) equal, [greater, to) above.
      int less = from;
      int greater = to;
      int i = from;
      while (i < greater) {
        int b = byteAt(order[i], depth, arena, offsets);
        if (b < pivot) {
          swap(order, less++, i++);
        } else if (b > pivot) {
          swap(order, i, --greater);
        } else {
          i++;
        }
      }
      sort(order, from, less, depth, arena, offsets);
      sort(order, greater, to, depth, arena, offsets);
      if (pivot < 0) {
        return; // strings that end here are equal: at most one, as values are distinct
      }
      // Continue with the equal range one byte deeper, without recursing.
      from = less;
      to = greater;
      depth++;
    }
    insertionSort(order, from, to, depth, arena, offsets);
  }

  private static void insertionSort(
      int[] order, int from, int to, int depth, byte[] arena, int[] offsets) {
    for (int i = from + 1; i < to; i++) {
      int value = order[i];
      int j = i - 1;
      while (j >= from && compare(order[j], value, depth, arena, offsets) > 0) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = value;
    }
  }

  private static int compare(int a, int b, int depth, byte[] arena, int[] offsets) {
    return Arrays.compareUnsigned(
        arena, offsets[a] + depth, offsets[a + 1], arena, offsets[b] + depth, offsets[b + 1]);
  }

  /** The unsigned byte at {@code depth}, or -1 past the string's end. */
  private static int byteAt(int index, int depth, byte[] arena, int[] offsets) {
    int position = offsets[index] + depth;
    return position < offsets[index + 1] ? arena[position] & 0xFF : -1;
  }

  private static int median(int a, int b, int c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static void swap(int[] order, int i, int j) {
    int held = order[i];
    order[i] = order[j];
    order[j] = held;
  }
}
