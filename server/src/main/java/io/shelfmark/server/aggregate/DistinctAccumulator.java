package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * COUNT(DISTINCT x), exact: per group a set of the non-null values. Longs and doubles (by their
 * canonical bits) go into a {@link LongIntMap} used as a set, without boxing; other values into a
 * hash set.
 */
final class DistinctAccumulator extends Accumulator {
  private final SqlType type;
  private final boolean longs;
  private final boolean doubles;
  private final List<LongIntMap> numberSets = new ArrayList<>();
  private final List<Set<Object>> objectSets = new ArrayList<>();
  private long size;

  DistinctAccumulator(SqlType type) {
    this.type = type;
    this.longs = Vector.isLongType(type);
    this.doubles = Vector.isDoubleType(type);
  }

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    while (numberSets.size() < groupCount) {
      numberSets.add(null);
      objectSets.add(null);
    }
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (argument.isNull(row)) {
        continue;
      }
      int group = groups[j];
      if (longs || doubles) {
        LongIntMap set = numberSets.get(group);
        if (set == null) {
          set = new LongIntMap(16);
          numberSets.set(group, set);
        }
        int before = set.size();
        set.getOrAdd(longs ? argument.longs()[row] : canonicalBits(argument.doubles()[row]));
        size += set.size() - before;
      } else {
        Set<Object> set = objectSets.get(group);
        if (set == null) {
          set = new HashSet<>();
          objectSets.set(group, set);
        }
        Object value = argument.object(row);
        if (set.add(
            value instanceof byte[] bytes ? ByteBuffer.wrap(bytes).asReadOnlyBuffer() : value)) {
          size++;
        }
      }
    }
  }

  @Override
  public long distinctValues() {
    return size;
  }

  static long canonicalBits(double value) {
    return Double.doubleToLongBits(value == 0.0 ? 0.0 : value);
  }

  @Override
  public AggregateState state(int group) {
    Set<Object> values = new HashSet<>();
    if (group < numberSets.size()) {
      if (longs || doubles) {
        LongIntMap set = numberSets.get(group);
        if (set != null) {
          for (long key : set.keys()) {
            Object raw = longs ? (Object) key : (Object) Double.longBitsToDouble(key);
            values.add(KeyValues.box(type, raw));
          }
        }
      } else if (objectSets.get(group) != null) {
        values.addAll(objectSets.get(group));
      }
    }
    return new AggregateState.Distinct(values);
  }
}
