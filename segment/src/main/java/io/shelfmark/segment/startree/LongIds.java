package io.shelfmark.segment.startree;

/**
 * Provisional ids of one LONG dimension's values, in first-seen order: an open-addressing table of
 * primitive longs, so that a row's value (a time bucket, most often) costs no boxing and no object
 * per distinct value. Not thread safe.
 */
final class LongIds {
  private long[] keys = new long[64];
  private int[] ids = new int[64];
  private boolean[] used = new boolean[64];
  private int size;

  /** The value's id; a value not seen before gets {@code next} (the caller's next free id). */
  int idOf(long value, int next) {
    int mask = keys.length - 1;
    int slot = mix(value) & mask;
    while (used[slot]) {
      if (keys[slot] == value) {
        return ids[slot];
      }
      slot = (slot + 1) & mask;
    }
    used[slot] = true;
    keys[slot] = value;
    ids[slot] = next;
    if (++size * 2 > keys.length) {
      grow();
    }
    return next;
  }

  int size() {
    return size;
  }

  /** The values, indexed by their provisional ids ({@code idCount} slots; unused ones 0). */
  long[] valuesById(int idCount) {
    long[] values = new long[idCount];
    for (int slot = 0; slot < keys.length; slot++) {
      if (used[slot]) {
        values[ids[slot]] = keys[slot];
      }
    }
    return values;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldIds = ids;
    boolean[] oldUsed = used;
    keys = new long[oldKeys.length * 2];
    ids = new int[oldKeys.length * 2];
    used = new boolean[oldKeys.length * 2];
    int mask = keys.length - 1;
    for (int slot = 0; slot < oldKeys.length; slot++) {
      if (oldUsed[slot]) {
        int to = mix(oldKeys[slot]) & mask;
        while (used[to]) {
          to = (to + 1) & mask;
        }
        used[to] = true;
        keys[to] = oldKeys[slot];
        ids[to] = oldIds[slot];
      }
    }
  }

  /** The table uses the low bits: fold the high ones in after multiplying (bucket multiples). */
  private static int mix(long value) {
    long h = value * 0x9E3779B97F4A7C15L;
    h ^= h >>> 32;
    h *= 0xD6E8FEB86659FD93L;
    return (int) (h ^ (h >>> 32));
  }

  @Override
  public String toString() {
    return "LongIds[size=" + size + "]";
  }
}
