package io.shelfmark.segment.dictionary;

import io.shelfmark.segment.encoding.ValueHash;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Assigns consecutive ids to distinct byte strings in first-seen order. The strings are copied once
 * into one growing arena; lookups compare in place, so adding a known value allocates nothing. Not
 * thread safe.
 *
 * <p>Each slot holds the high half of its value's hash beside the id (the low half picks the slot),
 * so a probe that meets another value is rejected without touching the value's hash or bytes: a
 * lookup costs one slot load plus, on a match, one comparison of the bytes.
 */
public final class BytesIdTable {
  private static final long EMPTY = -1L;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  // (hash >>> 32) << 32 | id, or EMPTY.
  private long[] slots = new long[64];
  private int mask = 63;
  private byte[] arena = new byte[1024];
  private int arenaSize;
  private int[] offsets = new int[17];
  private long[] hashes = new long[16];
  private int size;

  public BytesIdTable() {
    Arrays.fill(slots, EMPTY);
  }

  /** The id of the bytes, assigning the next id when they are new. */
  public int idOf(byte[] data, int offset, int length) {
    return idOf(ValueHash.hashBytes(data, offset, length), data, offset, length);
  }

  /** {@link #idOf(byte[], int, int)} of bytes whose {@link ValueHash#hashBytes} is known. */
  public int idOf(long hash, byte[] data, int offset, int length) {
    long tag = hash & 0xFFFF_FFFF_0000_0000L;
    int slot = (int) hash & mask;
    while (true) {
      long entry = slots[slot];
      if (entry == EMPTY) {
        return insert(slot, hash, data, offset, length);
      }
      int id = (int) entry;
      if ((entry & 0xFFFF_FFFF_0000_0000L) == tag && equalsValue(id, data, offset, length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The id of the bytes, or -1 when they have none (nothing is added). */
  public int find(byte[] data, int offset, int length) {
    long hash = ValueHash.hashBytes(data, offset, length);
    long tag = hash & 0xFFFF_FFFF_0000_0000L;
    int slot = (int) hash & mask;
    while (true) {
      long entry = slots[slot];
      if (entry == EMPTY) {
        return -1;
      }
      int id = (int) entry;
      if ((entry & 0xFFFF_FFFF_0000_0000L) == tag && equalsValue(id, data, offset, length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /**
   * The slot a lookup of {@code hash} reads first: with {@link #valueStart} and {@link #firstByte},
   * the three reads of a lookup, which depend on each other. Why they are public: one lookup at a
   * time waits for three cache misses in a row in a table larger than the cache, while a caller
   * with a batch of lookups can make each of the three reads for the whole batch in a loop of its
   * own, whose misses overlap, before the lookups ({@link #idOf(long, byte[], int, int)}) find
   * their lines in the cache.
   */
  public long slotOf(long hash) {
    return slots[(int) hash & mask];
  }

  /** Where the value a slot names starts in the arena (-1 for an empty slot). */
  public int valueStart(long slot) {
    return slot == EMPTY ? -1 : offsets[(int) slot];
  }

  /** The arena's byte at {@code start} (0 outside the arena). */
  public int firstByte(int start) {
    return start >= 0 && start < arenaSize ? arena[start] : 0;
  }

  /**
   * Whether value {@code id} equals the bytes: eight bytes per comparison, as the values are short
   * (names, ids) and a general mismatch search costs more than the comparison itself.
   */
  private boolean equalsValue(int id, byte[] data, int offset, int length) {
    int start = offsets[id];
    if (offsets[id + 1] - start != length) {
      return false;
    }
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      if ((long) LONGS.get(arena, start + i) != (long) LONGS.get(data, offset + i)) {
        return false;
      }
    }
    for (; i < length; i++) {
      if (arena[start + i] != data[offset + i]) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of {@code id} (a fresh array). */
  public byte[] bytes(int id) {
    return Arrays.copyOfRange(arena, offsets[id], offsets[id + 1]);
  }

  private int insert(int slot, long hash, byte[] data, int offset, int length) {
    int id = size++;
    if (arenaSize + length > arena.length) {
      long grown = Math.max((long) arena.length * 2, (long) arenaSize + length);
      if (grown > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException(
            "Cannot hold more than 2 GiB of distinct strings in one column's dictionary");
      }
      arena = Arrays.copyOf(arena, (int) grown);
    }
    System.arraycopy(data, offset, arena, arenaSize, length);
    if (id == hashes.length) {
      hashes = Arrays.copyOf(hashes, hashes.length * 2);
      offsets = Arrays.copyOf(offsets, hashes.length + 1);
    }
    offsets[id] = arenaSize;
    arenaSize += length;
    offsets[id + 1] = arenaSize;
    hashes[id] = hash;
    slots[slot] = entry(hash, id);
    if (size * 2 > slots.length) {
      grow();
    }
    return id;
  }

  private static long entry(long hash, int id) {
    return (hash & 0xFFFF_FFFF_0000_0000L) | id;
  }

  private void grow() {
    slots = new long[slots.length * 2];
    Arrays.fill(slots, EMPTY);
    mask = slots.length - 1;
    for (int id = 0; id < size; id++) {
      int slot = (int) hashes[id] & mask;
      while (slots[slot] != EMPTY) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = entry(hashes[id], id);
    }
  }

  public int size() {
    return size;
  }

  /**
   * The {@link ValueHash} of each value, indexed by id (the array may be longer than {@link
   * #size()}).
   */
  long[] hashes() {
    return hashes;
  }

  byte[] arena() {
    return arena;
  }

  /** Offsets into the arena: value {@code id} spans {@code offsets[id]..offsets[id + 1]}. */
  int[] offsets() {
    return offsets;
  }
}
