package io.shelfmark.server.aggregate;

import java.util.Arrays;

/**
 * Long keys to ids the caller chose, for a GROUP BY key column. While the keys seen span a small
 * range (time buckets of a query's time range, small integer codes) they are looked up in an int
 * array indexed by {@code key - base}: a subtraction, a compare and a load per row, no hashing.
 * Once the span passes {@link #MAX_DENSE_SPAN}, or the keys are too sparse for the array's size
 * (more than {@link #MAX_SLOTS_PER_KEY} slots per key once it would pass {@link
 * #MAX_SPARSE_CAPACITY}), the keys move to a hash table for good.
 *
 * <p>The window {@code [base, base + capacity)} never reaches past {@link Long#MAX_VALUE}, so the
 * unsigned test {@code key - base < capacity} (computed with wraparound) holds exactly for the keys
 * inside it. Not thread safe.
 */
final class LongKeyIds {
  /** The largest key range held in a direct array: 4 MiB of ids. */
  static final int MAX_DENSE_SPAN = 1 << 20;

  /**
   * The largest direct array kept for keys of any density: 256 KiB of ids, below G1's humongous
   * threshold (half a region, and regions are at least 1 MiB).
   */
  static final int MAX_SPARSE_CAPACITY = 1 << 16;

  /**
   * Beyond {@link #MAX_SPARSE_CAPACITY}, the most slots per key a direct array may spend: about
   * what a hash table costs per key. Raw epoch-millisecond timestamps 15 s apart (a GROUP BY of a
   * time column) would otherwise get a 4 MiB array per file for a few hundred keys: in a load test
   * of 8 such queries, 30 GB of humongous int arrays and young pauses of 60-110 ms that every other
   * query on the node waited through.
   */
  static final int MAX_SLOTS_PER_KEY = 8;

  private static final int ABSENT = -1;
  private static final int INITIAL_CAPACITY = 64;

  // Dense mode: ids by key - base, ABSENT where no key was put; null once hashed.
  private int[] dense = absent(INITIAL_CAPACITY);
  private long base;
  private long min = Long.MAX_VALUE;
  private long max = Long.MIN_VALUE;
  // Hashed mode: an id map of the LongIntMap family, keyed by the key itself.
  private LongIntMap hashed;
  private int[] hashedIds;
  private int size;

  /** The id of {@code key}, or -1 when it was never put. */
  int get(long key) {
    int[] slots = dense;
    if (slots != null) {
      long offset = key - base;
      return Long.compareUnsigned(offset, slots.length) < 0 ? slots[(int) offset] : ABSENT;
    }
    int number = hashed.get(key);
    return number < 0 ? ABSENT : hashedIds[number];
  }

  /** Records {@code id} for {@code key}, which {@link #get} does not hold yet. */
  void put(long key, int id) {
    if (id < 0) {
      throw new IllegalArgumentException("Cannot put a negative id: " + id);
    }
    if (size++ == 0) {
      base = windowBase(key, key, dense.length);
    }
    min = Math.min(min, key);
    max = Math.max(max, key);
    if (dense != null) {
      long offset = key - base;
      if (Long.compareUnsigned(offset, dense.length) >= 0) {
        widen();
      }
    }
    if (dense != null) {
      dense[(int) (key - base)] = id;
    } else {
      putHashed(key, id);
    }
  }

  /** Whether lookups still go through the direct array (for tests). */
  boolean isDense() {
    return dense != null;
  }

  int size() {
    return size;
  }

  /** Slots of the direct array, 0 once hashed (for tests). */
  int capacity() {
    return dense == null ? 0 : dense.length;
  }

  /**
   * A window twice as wide as [min, max] around it, or the hash table when that range is too wide.
   * Sized from the span, not from the old window: keys in random order extend min and max many
   * times, and doubling the window each time ran it up to {@link #MAX_DENSE_SPAN} for a few
   * thousand keys.
   */
  private void widen() {
    // max - min as an unsigned number is the exact distance, even across the whole long range.
    if (Long.compareUnsigned(max - min, MAX_DENSE_SPAN) >= 0) {
      toHashed();
      return;
    }
    int span = (int) (max - min) + 1;
    int capacity = (int) Math.min(MAX_DENSE_SPAN, Math.max(INITIAL_CAPACITY, 2L * span));
    if (capacity > MAX_SPARSE_CAPACITY && capacity > (long) MAX_SLOTS_PER_KEY * size) {
      toHashed();
      return;
    }
    long newBase = windowBase(min, max, capacity);
    int[] slots = absent(capacity);
    // The old window's keys all lie in [min, max], inside the new window; both windows lie within
    // MAX_DENSE_SPAN of min, so their distance fits an int.
    int shift = (int) (base - newBase);
    int from = Math.max(0, -shift);
    int to = Math.min(dense.length, capacity - shift);
    for (int i = from; i < to; i++) {
      slots[i + shift] = dense[i];
    }
    dense = slots;
    base = newBase;
  }

  /**
   * The base of a window of {@code capacity} slots over [low, high], its spare slots split evenly
   * below and above the range (keys may extend it either way), never reaching below {@link
   * Long#MIN_VALUE} or above {@link Long#MAX_VALUE}.
   */
  private static long windowBase(long low, long high, int capacity) {
    long below = (capacity - 1 - (high - low)) / 2;
    // low - below would pass Long.MIN_VALUE: start there instead.
    long wanted = low < Long.MIN_VALUE + below ? Long.MIN_VALUE : low - below;
    long highestBase = Long.MAX_VALUE - (capacity - 1);
    return Math.min(wanted, highestBase);
  }

  private static int[] absent(int capacity) {
    int[] slots = new int[capacity];
    Arrays.fill(slots, ABSENT);
    return slots;
  }

  private void toHashed() {
    hashed = new LongIntMap(Math.max(64, size));
    hashedIds = new int[Math.max(64, size)];
    int[] slots = dense;
    dense = null;
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] != ABSENT) {
        putHashed(base + i, slots[i]);
      }
    }
  }

  private void putHashed(long key, int id) {
    int number = hashed.getOrAdd(key);
    if (number >= hashedIds.length) {
      hashedIds = Arrays.copyOf(hashedIds, Math.max(number + 1, hashedIds.length * 2));
    }
    hashedIds[number] = id;
  }
}
