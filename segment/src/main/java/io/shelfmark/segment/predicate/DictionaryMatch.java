package io.shelfmark.segment.predicate;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.Arrays;
import java.util.List;

/**
 * Finds the dictionary ids of an {@code IN} list's values: the dictionary is matched once per
 * segment, by whichever of two ways costs fewer comparisons.
 *
 * <ul>
 *   <li><b>search</b>: one dictionary search per value, about {@code k · log2(n)} comparisons for
 *       {@code k} values over {@code n} entries — the cheap way for a short list;
 *   <li><b>walk</b>: one pass over the dictionary in id order beside the list, whose values are
 *       sorted in the dictionary's order ({@link In} keeps them so), {@code n + k} comparisons and
 *       no allocation per value — the cheap way when the list is long. A list of 10,000 strings
 *       over a dictionary of 3,000 entries costs 13,000 comparisons instead of 10,000 searches.
 * </ul>
 *
 * Both give the same ids: equality is {@link Value} equality in both (a DOUBLE dictionary stores
 * canonical values, whose {@link Value#sortableBits} order and equality are {@link Value}'s).
 * Stateless.
 */
public final class DictionaryMatch {
  private DictionaryMatch() {}

  /**
   * The ids, ascending, of the values found in {@code dictionary}.
   *
   * @param sortedValues distinct values of the dictionary's type in ascending {@link Value} order
   */
  public static int[] ids(Dictionary dictionary, List<Value> sortedValues) {
    requireNonNull(dictionary, "dictionary is null");
    requireNonNull(sortedValues, "sortedValues is null");
    int n = dictionary.size();
    int k = sortedValues.size();
    if (n == 0 || k == 0) {
      return new int[0];
    }
    return walks(n, k) ? walk(dictionary, sortedValues) : search(dictionary, sortedValues);
  }

  /**
   * Whether one walk over {@code n} entries costs fewer comparisons than {@code k} searches: a
   * search compares about {@code log2(n) + 1} times (the string dictionary's last step scans a
   * block of 16, which makes searches dearer still, so the rule leans towards searching).
   */
  static boolean walks(int n, int k) {
    int log2 = 32 - Integer.numberOfLeadingZeros(n);
    return (long) k * (log2 + 1) > (long) n + k;
  }

  private static int[] search(Dictionary dictionary, List<Value> values) {
    int[] ids = new int[values.size()];
    int count = 0;
    for (Value value : values) {
      int id = dictionary.indexOf(value);
      if (id >= 0) {
        ids[count++] = id;
      }
    }
    // Sorted values have ascending ids already; kept sorted anyway for a caller's unsorted list.
    int[] found = Arrays.copyOf(ids, count);
    Arrays.sort(found);
    return found;
  }

  private static int[] walk(Dictionary dictionary, List<Value> values) {
    return dictionary.type() == ValueType.STRING
        ? walkStrings(dictionary, values)
        : walkLongs(dictionary, values);
  }

  private static int[] walkLongs(Dictionary dictionary, List<Value> values) {
    boolean doubles = dictionary.type() == ValueType.DOUBLE;
    long[] wanted = new long[values.size()];
    for (int i = 0; i < wanted.length; i++) {
      wanted[i] = LongIntervals.toDomain(values.get(i));
    }
    int[] ids = new int[Math.min(wanted.length, dictionary.size())];
    int count = 0;
    int next = 0;
    for (int id = 0; id < dictionary.size() && next < wanted.length; id++) {
      long entry =
          doubles ? Value.sortableBits(dictionary.doubleValue(id)) : dictionary.longValue(id);
      while (next < wanted.length && wanted[next] < entry) {
        next++;
      }
      if (next < wanted.length && wanted[next] == entry) {
        ids[count++] = id;
        next++;
      }
    }
    return Arrays.copyOf(ids, count);
  }

  private static int[] walkStrings(Dictionary dictionary, List<Value> values) {
    byte[][] wanted = new byte[values.size()][];
    for (int i = 0; i < wanted.length; i++) {
      wanted[i] = ((Value.StringValue) values.get(i)).utf8();
    }
    StringWalk walk = new StringWalk(wanted, Math.min(wanted.length, dictionary.size()));
    dictionary.forEachBytes(walk::accept);
    return Arrays.copyOf(walk.ids, walk.count);
  }

  /** The walk's cursor into the sorted list, advanced by each entry in id order. */
  private static final class StringWalk {
    private final byte[][] wanted;
    private final int[] ids;
    private int count;
    private int next;

    StringWalk(byte[][] wanted, int capacity) {
      this.wanted = wanted;
      this.ids = new int[capacity];
    }

    void accept(byte[] entry, int id) {
      while (next < wanted.length) {
        int compare = Arrays.compareUnsigned(wanted[next], entry);
        if (compare > 0) {
          return;
        }
        next++;
        if (compare == 0) {
          ids[count++] = id;
          return;
        }
      }
    }
  }
}
