package io.shelfmark.segment.dictionary;

import io.shelfmark.segment.encoding.ValueHash;
import java.util.Arrays;

/**
 * Assigns consecutive ids to distinct byte strings in first-seen order. The strings are copied once
 * into one growing arena; lookups compare in place, so adding a known value allocates nothing. Not
 * thread safe.
 */
public final class BytesIdTable {
  private int[] slots = new int[64];
  private int mask = 63;
  private byte[] arena = new byte[1024];
  private int arenaSize;
  private int[] offsets = new int[17];
  private long[] hashes = new long[16];
  private int size;

  public BytesIdTable() {
    Arrays.fill(slots, -1);
  }

  /** The id of the bytes, assigning the next id when they are new. */
  public int idOf(byte[] data, int offset, int length) {
    long hash = ValueHash.hashBytes(data, offset, length);
    int slot = (int) hash & mask;
    while (true) {
      int id = slots[slot];
      if (id < 0) {
        return insert(slot, hash, data, offset, length);
      }
      if (hashes[id] == hash
          && Arrays.equals(arena, offsets[id], offsets[id + 1], data, offset, offset + length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** The id of the bytes, or -1 when they have none (nothing is added). */
  public int find(byte[] data, int offset, int length) {
    long hash = ValueHash.hashBytes(data, offset, length);
    int slot = (int) hash & mask;
    while (true) {
      int id = slots[slot];
      if (id < 0) {
        return -1;
      }
      if (hashes[id] == hash
          && Arrays.equals(arena, offsets[id], offsets[id + 1], data, offset, offset + length)) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
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
    slots[slot] = id;
    if (size * 2 > slots.length) {
      grow();
    }
    return id;
  }

  private void grow() {
    slots = new int[slots.length * 2];
    Arrays.fill(slots, -1);
    mask = slots.length - 1;
    for (int id = 0; id < size; id++) {
      int slot = (int) hashes[id] & mask;
      while (slots[slot] >= 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = id;
    }
  }

  public int size() {
    return size;
  }

  byte[] arena() {
    return arena;
  }

  /** Offsets into the arena: value {@code id} spans {@code offsets[id]..offsets[id + 1]}. */
  int[] offsets() {
    return offsets;
  }
}
