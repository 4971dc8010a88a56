package io.shelfmark.segment.dictionary;

import java.util.Arrays;

/**
 * Assigns consecutive ids to distinct longs in first-seen order: an open-addressing hash table with
 * linear probing, no boxing. Not thread safe.
 */
final class LongIdTable {
  private long[] keys = new long[64];
  private int[] ids = new int[64];
  private long[] values = new long[16];
  private int size;
  private int mask = 63;

  {
    Arrays.fill(ids, -1);
  }

  /** The id of {@code value}, assigning the next id when it is new. */
  int idOf(long value) {
    int slot = (int) mix(value) & mask;
    while (true) {
      int id = ids[slot];
      if (id < 0) {
        return insert(slot, value);
      }
      if (keys[slot] == value) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  private int insert(int slot, long value) {
    int id = size++;
    keys[slot] = value;
    ids[slot] = id;
    if (id == values.length) {
      values = Arrays.copyOf(values, values.length * 2);
    }
    values[id] = value;
    if (size * 2 > keys.length) {
      grow();
    }
    return id;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldIds = ids;
    keys = new long[oldKeys.length * 2];
    ids = new int[oldIds.length * 2];
    Arrays.fill(ids, -1);
    mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldIds[i] >= 0) {
        int slot = (int) mix(oldKeys[i]) & mask;
        while (ids[slot] >= 0) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        ids[slot] = oldIds[i];
      }
    }
  }

  private static long mix(long value) {
    long z = value * 0x9E3779B97F4A7C15L;
    return z ^ (z >>> 29);
  }

  int size() {
    return size;
  }

  /** The distinct values, indexed by id (the array may be longer than {@link #size()}). */
  long[] values() {
    return values;
  }
}
