package io.shelfmark.segment.dictionary;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Sorts indexes of byte strings held in one arena by the strings' unsigned byte order, seven bytes
 * at a time: each string's next seven bytes and a marker go into one {@code long} key, the range is
 * sorted on the keys alone (a three-way quicksort over two parallel primitive arrays), and only the
 * runs of equal keys whose strings go on are sorted again on their next seven bytes. Dictionary
 * values share long prefixes ({@code node-01…}); comparing seven bytes per step, with the keys read
 * once per level into a sequential array, touches the arena far less than a comparison sort or a
 * byte-at-a-time radix sort. No index is boxed. Ties cannot occur: the strings are distinct.
 *
 * <p>The key of a string at depth {@code d} covers bytes {@code 7d .. 7d + 6}, zero-padded past the
 * string's end, big-endian in the high 56 bits; the low byte is the number of those bytes the
 * string holds (0 to 7), or 8 when it goes on beyond them. Two strings' keys then compare
 * (unsigned) as the strings do, except that two strings that both go on compare equal: exactly the
 * runs sorted again one level deeper. A string that ends is smaller than any longer string it
 * prefixes — its padding is zero and its marker smaller — and two strings with equal keys that end
 * are equal.
 */
final class ByteStringSort {
  /** Bytes of a string per key. */
  private static final int STEP = 7;

  private static final int GOES_ON = 8;

  /** Ranges this short are finished by insertion sort. */
  private static final int INSERTION = 16;

  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private ByteStringSort() {}

  /** Sorts {@code order} (indexes into {@code offsets}) in place. */
  static void sort(int[] order, byte[] arena, int[] offsets) {
    long[] keys = new long[order.length];
    sort(order, keys, 0, order.length, 0, arena, offsets);
  }

  /** Sorts {@code order[from..to)}, whose strings all share their first {@code depth * 7} bytes. */
  private static void sort(
      int[] order, long[] keys, int from, int to, int depth, byte[] arena, int[] offsets) {
    for (int i = from; i < to; i++) {
      keys[i] = key(order[i], depth, arena, offsets);
    }
    sortKeys(order, keys, from, to);
    int run = from;
    for (int i = from + 1; i <= to; i++) {
      if (i == to || keys[i] != keys[run]) {
        if (i - run > 1 && (keys[run] & 0xFF) == GOES_ON) {
          // Equal keys of distinct strings: they all go on past these bytes. (Equal keys of
          // strings that end here would be equal strings, which the callers never pass.)
          sort(order, keys, run, i, depth + 1, arena, offsets);
        }
        run = i;
      }
    }
  }

  /**
   * The key of string {@code index} at {@code depth}, with its sign bit flipped so that signed
   * comparison of keys is unsigned comparison of the bytes.
   */
  private static long key(int index, int depth, byte[] arena, int[] offsets) {
    int start = offsets[index] + depth * STEP;
    int remaining = offsets[index + 1] - start;
    long key;
    if (remaining > STEP) {
      // At least eight bytes are there to read; keep the first seven.
      key = ((long) BIG_ENDIAN_LONG.get(arena, start) & ~0xFFL) | GOES_ON;
    } else {
      key = 0;
      for (int i = 0; i < remaining; i++) {
        key = (key << 8) | (arena[start + i] & 0xFFL);
      }
      key = (key << (8 * (STEP - remaining) + 8)) | remaining;
    }
    return key ^ Long.MIN_VALUE;
  }

  /** Sorts {@code keys[from..to)} ascending, moving {@code order} along. */
  private static void sortKeys(int[] order, long[] keys, int from, int to) {
    while (to - from > INSERTION) {
      long pivot = median(keys[from], keys[(from + to) >>> 1], keys[to - 1]);
      // Three-way partition: [from, less) below, [less, greater) equal, [greater, to) above.
      int less = from;
      int greater = to;
      int i = from;
      while (i < greater) {
        long key = keys[i];
        if (key < pivot) {
          swap(order, keys, less++, i++);
        } else if (key > pivot) {
          swap(order, keys, i, --greater);
        } else {
          i++;
        }
      }
      // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
      if (less - from < to - greater) {
        sortKeys(order, keys, from, less);
        from = greater;
      } else {
        sortKeys(order, keys, greater, to);
        to = less;
      }
    }
    for (int i = from + 1; i < to; i++) {
      long key = keys[i];
      int index = order[i];
      int j = i - 1;
      while (j >= from && keys[j] > key) {
        keys[j + 1] = keys[j];
        order[j + 1] = order[j];
        j--;
      }
      keys[j + 1] = key;
      order[j + 1] = index;
    }
  }

  private static long median(long a, long b, long c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static void swap(int[] order, long[] keys, int i, int j) {
    int heldIndex = order[i];
    order[i] = order[j];
    order[j] = heldIndex;
    long heldKey = keys[i];
    keys[i] = keys[j];
    keys[j] = heldKey;
  }
}
