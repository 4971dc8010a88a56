package io.shelfmark.server.aggregate;

import io.shelfmark.server.vector.Vector;
import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct values of one GROUP BY key seen so far, numbered densely (NULL is a value too). Long
 * and double keys are numbered through a {@link LongIntMap} without boxing; strings and other
 * objects through a hash map, and a dictionary-encoded batch is numbered once per dictionary entry
 * it uses rather than once per row. Not thread safe.
 */
final class KeyColumn {
  private final SqlType type;
  private final LongIntMap numbers = new LongIntMap(64);
  private final Map<Object, Integer> objects = new HashMap<>();
  private final List<Object> values = new ArrayList<>();
  private int nullId = -1;
  private int[] numberToId = new int[64];
  private int numberCount;

  KeyColumn(SqlType type) {
    this.type = type;
  }

  /** Writes the key id of each selected row {@code sel[0..n)} into {@code out[0..n)}. */
  void ids(Vector vector, int[] sel, int n, int[] out) {
    if (Vector.isLongType(type)) {
      long[] in = vector.longs();
      for (int j = 0; j < n; j++) {
        int row = sel[j];
        out[j] = vector.isNull(row) ? nullId() : longId(in[row]);
      }
    } else if (Vector.isDoubleType(type)) {
      double[] in = vector.doubles();
      for (int j = 0; j < n; j++) {
        int row = sel[j];
        out[j] = vector.isNull(row) ? nullId() : doubleId(in[row]);
      }
    } else if (vector.isDictionaryEncoded() && n * 4 >= vector.dictionary().size()) {
      int[] remap = new int[vector.dictionary().size()];
      java.util.Arrays.fill(remap, -1);
      int[] ids = vector.ids();
      for (int j = 0; j < n; j++) {
        int id = ids[sel[j]];
        if (id < 0) {
          out[j] = nullId();
        } else {
          if (remap[id] < 0) {
            remap[id] = objectId(vector.dictionary().value(id));
          }
          out[j] = remap[id];
        }
      }
    } else {
      for (int j = 0; j < n; j++) {
        Object value = vector.object(sel[j]);
        out[j] = value == null ? nullId() : objectId(value);
      }
    }
  }

  private int nullId() {
    if (nullId < 0) {
      nullId = values.size();
      values.add(null);
    }
    return nullId;
  }

  private int longId(long value) {
    int number = numbers.getOrAdd(value);
    return number < numberCount ? numberToId[number] : newNumber(value);
  }

  private int doubleId(double value) {
    double canonical = value == 0.0 ? 0.0 : value;
    int number = numbers.getOrAdd(Double.doubleToLongBits(canonical));
    return number < numberCount ? numberToId[number] : newNumber(canonical);
  }

  // The LongIntMap numbers its own keys; this column's ids also count NULL, so map between them.
  private int newNumber(Object boxed) {
    if (numberCount == numberToId.length) {
      numberToId = java.util.Arrays.copyOf(numberToId, numberCount * 2);
    }
    int id = values.size();
    values.add(boxed);
    numberToId[numberCount++] = id;
    return id;
  }

  private int objectId(Object value) {
    Object key = value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
    Integer id = objects.get(key);
    if (id == null) {
      id = values.size();
      values.add(value);
      objects.put(key, id);
    }
    return id;
  }

  /** The number of distinct values (NULL included). */
  int size() {
    return values.size();
  }

  /** The value of key id {@code id}, boxed in the SQL type's representation. */
  Object value(int id) {
    Object value = values.get(id);
    if (value == null) {
      return null;
    }
    return KeyValues.box(type, value);
  }
}
