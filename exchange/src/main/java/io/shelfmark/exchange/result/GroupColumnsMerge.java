package io.shelfmark.exchange.result;

import io.shelfmark.exchange.vector.Vector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Merges partials whose groups are all {@link GroupColumns} with one integer-typed GROUP BY key
 * (the many-group case: a timestamp, an id) column by column: keys numbered through a primitive
 * hash table, states added into primitive arrays. The result equals {@link PartialResult#mergeAll}
 * over boxed groups: groups in order of first appearance, states merged in partial order.
 */
final class GroupColumnsMerge {
  private GroupColumnsMerge() {}

  /**
   * The merged groups, or empty when the partials are not all of that shape (the boxed merge
   * answers them) or hold COUNT(DISTINCT) sets (unioned once by the boxed merge).
   */
  static Optional<GroupColumns> merge(
      List<PartialResult> partials, Runnable check, PartialResult.MergeLimits limits) {
    List<GroupColumns> inputs = new ArrayList<>(partials.size());
    GroupColumns shape = null;
    long total = 0;
    for (PartialResult partial : partials) {
      if (partial.groups().isEmpty()) {
        continue;
      }
      if (!(partial.groups() instanceof GroupColumns columns) || !mergeable(columns, shape)) {
        return Optional.empty();
      }
      shape = shape == null ? columns : shape;
      inputs.add(columns);
      total += columns.size();
    }
    if (shape == null) {
      return Optional.empty();
    }
    int capacity = (int) Math.min(total, 1 << 20);
    LongIds ids = new LongIds(capacity);
    long[] keys = new long[capacity];
    boolean[] nulls = null;
    int nullId = -1;
    List<StateColumn.Merged> merged = new ArrayList<>();
    for (StateColumn column : shape.states()) {
      merged.add(column.merged(capacity));
    }
    int seen = 0;
    for (GroupColumns input : inputs) {
      Vector key = input.keys().getFirst();
      long[] values = key.longs();
      boolean[] inputNulls = key.nulls();
      for (int g = 0; g < input.size(); g++) {
        int before = ids.size() + (nullId >= 0 ? 1 : 0);
        int target;
        if (inputNulls != null && inputNulls[g]) {
          if (nullId < 0) {
            nullId = before;
          }
          target = nullId;
        } else {
          target = ids.idOf(values[g], before);
        }
        boolean first = target == before;
        if (first) {
          if (target >= keys.length) {
            keys = Arrays.copyOf(keys, Math.max(target + 1, keys.length * 2));
            nulls = nulls == null ? null : Arrays.copyOf(nulls, keys.length);
          }
          if (target == nullId) {
            if (nulls == null) {
              nulls = new boolean[keys.length];
            }
            nulls[target] = true;
          } else {
            keys[target] = values[g];
          }
        }
        for (int a = 0; a < merged.size(); a++) {
          merged.get(a).put(target, first, input.states().get(a), g);
        }
        if ((++seen & 4095) == 0) {
          check.run();
          limits.groups().accept(ids.size() + (nullId >= 0 ? 1 : 0));
        }
      }
    }
    int size = ids.size() + (nullId >= 0 ? 1 : 0);
    limits.groups().accept(size);
    List<StateColumn> states = new ArrayList<>(merged.size());
    for (StateColumn.Merged column : merged) {
      states.add(column.column());
    }
    Vector key = Vector.ofLongs(shape.keys().getFirst().type(), size, keys, nulls);
    return Optional.of(new GroupColumns(size, List.of(key), states));
  }

  private static boolean mergeable(GroupColumns columns, GroupColumns shape) {
    if (columns.keys().size() != 1 || !Vector.isLongType(columns.keys().getFirst().type())) {
      return false;
    }
    for (int a = 0; a < columns.states().size(); a++) {
      StateColumn column = columns.states().get(a);
      if (column instanceof StateColumn.States states
          && states.states().length > 0
          && states.states()[0] instanceof AggregateState.Distinct) {
        return false;
      }
    }
    if (shape == null) {
      return true;
    }
    if (!shape.keys().getFirst().type().equals(columns.keys().getFirst().type())
        || shape.states().size() != columns.states().size()) {
      return false;
    }
    for (int a = 0; a < columns.states().size(); a++) {
      if (shape.states().get(a).getClass() != columns.states().get(a).getClass()) {
        return false;
      }
    }
    return true;
  }

  /** Dense ids for long keys: open addressing, linear probing, no boxing. */
  private static final class LongIds {
    private long[] keys;
    private int[] ids; // id + 1; 0 is an empty slot
    private int size;

    LongIds(int expected) {
      int capacity = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
      keys = new long[capacity];
      ids = new int[capacity];
    }

    int size() {
      return size;
    }

    /** The id of {@code key}, {@code next} (and counted) if it is new. */
    int idOf(long key, int next) {
      int mask = keys.length - 1;
      int slot = (int) mix(key) & mask;
      while (ids[slot] != 0) {
        if (keys[slot] == key) {
          return ids[slot] - 1;
        }
        slot = (slot + 1) & mask;
      }
      keys[slot] = key;
      ids[slot] = next + 1;
      if (++size * 2 > keys.length) {
        grow();
      }
      return next;
    }

    private void grow() {
      long[] oldKeys = keys;
      int[] oldIds = ids;
      keys = new long[oldKeys.length * 2];
      ids = new int[oldIds.length * 2];
      int mask = keys.length - 1;
      for (int i = 0; i < oldKeys.length; i++) {
        if (oldIds[i] != 0) {
          int slot = (int) mix(oldKeys[i]) & mask;
          while (ids[slot] != 0) {
            slot = (slot + 1) & mask;
          }
          keys[slot] = oldKeys[i];
          ids[slot] = oldIds[i];
        }
      }
    }

    private static long mix(long key) {
      long h = key * 0x9E3779B97F4A7C15L;
      return h ^ (h >>> 32);
    }
  }
}
