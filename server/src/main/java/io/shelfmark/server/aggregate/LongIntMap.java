package io.shelfmark.server.aggregate;

import java.util.Arrays;

/**
 * An open-addressing map from long keys to dense int ids 0, 1, 2, ... in insertion order: the group
 * table's building block, with no boxing. Not thread safe.
 */
public final class LongIntMap {
  private static final int EMPTY = -1;
  private long[] keys;
  private int[] ids;
  private int size;
  private int mask;
  private long lastKey;
  private int lastId = EMPTY;

  public LongIntMap(int expected) {
    int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
    keys = new long[capacity];
    ids = new int[capacity];
    Arrays.fill(ids, EMPTY);
    mask = capacity - 1;
  }

  /** The id of {@code key}, assigning the next id when it is new. */
  public int getOrAdd(long key) {
    // Rows often come in key order (files sorted by time, grouped by a time bucket): a run of
    // equal keys costs one comparison each.
    if (key == lastKey && lastId != EMPTY) {
      return lastId;
    }
    int id = find(key);
    lastKey = key;
    lastId = id;
    return id;
  }

  private int find(long key) {
    int slot = slot(key);
    while (true) {
      int id = ids[slot];
      if (id == EMPTY) {
        keys[slot] = key;
        ids[slot] = size;
        if (++size * 2 > keys.length) {
          grow();
        }
        return size - 1;
      }
      if (keys[slot] == key) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The id of {@code key}, or -1. */
  public int get(long key) {
    int slot = slot(key);
    while (true) {
      int id = ids[slot];
      if (id == EMPTY) {
        return -1;
      }
      if (keys[slot] == key) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  public int size() {
    return size;
  }

  private int slot(long key) {
    long hash = key * 0x9E3779B97F4A7C15L;
    return (int) (hash ^ (hash >>> 32)) & mask;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldIds = ids;
    keys = new long[oldKeys.length * 2];
    ids = new int[oldKeys.length * 2];
    Arrays.fill(ids, EMPTY);
    mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldIds[i] != EMPTY) {
        int slot = slot(oldKeys[i]);
        while (ids[slot] != EMPTY) {
          slot = (slot + 1) & mask;
        }
        keys[slot] = oldKeys[i];
        ids[slot] = oldIds[i];
      }
    }
  }

  /** The keys, in id order. */
  public long[] keys() {
    long[] out = new long[size];
    for (int i = 0; i < keys.length; i++) {
      if (ids[i] != EMPTY) {
        out[ids[i]] = keys[i];
      }
    }
    return out;
  }
}
