package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The distinct values of one GROUP BY key seen so far, numbered densely (NULL is a value too). Long
 * and double keys are numbered through {@link LongKeyIds} without boxing (a direct array while
 * their range is small); strings and other objects through a hash map, and a dictionary-encoded
 * batch is numbered once per dictionary entry it uses rather than once per row.
 *
 * <p>A key {@code dateTrunc(unit, x)} of a fixed-width unit (millisecond to day) is numbered by its
 * bucket {@code floorDiv(x, width)} straight from {@code x}'s values: no truncated vector is built,
 * and the buckets of a query's time range are a small dense range. Not thread safe.
 */
final class KeyColumn {
  private final Expression expression;
  private final SqlType type;
  private final TimeBucket bucket;
  private final LongKeyIds numbers = new LongKeyIds();
  private final Map<Object, Integer> objects = new HashMap<>();
  private final List<Object> values = new ArrayList<>();
  private int nullId = -1;

  KeyColumn(Expression expression) {
    this.expression = expression;
    this.type = expression.type();
    this.bucket = TimeBucket.of(expression).orElse(null);
  }

  /**
   * Writes the key id of each selected row {@code sel[0..n)} of a batch of {@code size} rows into
   * {@code out[0..n)}.
   */
  void ids(VectorInputs inputs, int size, int[] sel, int n, int[] out) {
    if (bucket != null) {
      Vector value = VectorEvaluator.evaluate(((DateTrunc) expression).value(), inputs, size);
      bucketIds(value, sel, n, out);
    } else {
      ids(VectorEvaluator.evaluate(expression, inputs, size), sel, n, out);
    }
  }

  /** Writes the key id of each selected row {@code sel[0..n)} of {@code vector}'s rows. */
  void ids(Vector vector, int[] sel, int n, int[] out) {
    if (Vector.isLongType(type)) {
      longIds(vector, sel, n, out);
    } else if (Vector.isDoubleType(type)) {
      double[] in = vector.doubles();
      for (int j = 0; j < n; j++) {
        int row = sel[j];
        out[j] = vector.isNull(row) ? nullId() : doubleId(in[row]);
      }
    } else if (vector.isDictionaryEncoded() && n * 4 >= vector.dictionary().size()) {
      dictionaryIds(vector, sel, n, out);
    } else {
      for (int j = 0; j < n; j++) {
        Object value = vector.object(sel[j]);
        out[j] = value == null ? nullId() : objectId(value);
      }
    }
  }

  private void longIds(Vector vector, int[] sel, int n, int[] out) {
    long[] in = vector.longs();
    boolean[] nulls = vector.nulls();
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (nulls != null && nulls[row]) {
        out[j] = nullId();
      } else {
        long value = in[row];
        int id = numbers.get(value);
        out[j] = id >= 0 ? id : newNumber(value, value);
      }
    }
  }

  // One loop per width: a constant divisor lets the JIT divide by multiplying.
  private void bucketIds(Vector value, int[] sel, int n, int[] out) {
    long[] in = value.longs();
    boolean[] nulls = value.nulls();
    switch (bucket) {
      case MILLIS_SECOND -> bucketIds(in, nulls, sel, n, out, 1_000L);
      case MILLIS_MINUTE -> bucketIds(in, nulls, sel, n, out, 60_000L);
      case MILLIS_HOUR -> bucketIds(in, nulls, sel, n, out, 3_600_000L);
      case MILLIS_DAY -> bucketIds(in, nulls, sel, n, out, 86_400_000L);
      case MICROS_MILLISECOND -> bucketIds(in, nulls, sel, n, out, 1_000L);
      case MICROS_SECOND -> bucketIds(in, nulls, sel, n, out, 1_000_000L);
      case MICROS_MINUTE -> bucketIds(in, nulls, sel, n, out, 60_000_000L);
      case MICROS_HOUR -> bucketIds(in, nulls, sel, n, out, 3_600_000_000L);
      case MICROS_DAY -> bucketIds(in, nulls, sel, n, out, 86_400_000_000L);
      case MULTIPLE -> bucketIds(in, nulls, sel, n, out, ((DateTrunc) expression).width());
    }
  }

  // Rows usually come in time order (files sorted or clustered on time): a row inside the previous
  // row's bucket [start, start + width) takes its id with a subtraction and a compare. Only a new
  // bucket pays the division (the JIT does not always see width as a constant: a 64-bit divide is
  // 20-40 ns) and the lookup.
  private void bucketIds(long[] in, boolean[] nulls, int[] sel, int n, int[] out, long width) {
    long lastStart = 0;
    int lastId = -1;
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (nulls != null && nulls[row]) {
        out[j] = nullId();
        continue;
      }
      long value = in[row];
      if (lastId >= 0 && Long.compareUnsigned(value - lastStart, width) < 0) {
        out[j] = lastId;
        continue;
      }
      long key = Math.floorDiv(value, width);
      int id = numbers.get(key);
      id = id >= 0 ? id : newNumber(key, ((DateTrunc) expression).truncate(value));
      out[j] = id;
      long start = key * width;
      // A bucket whose start overflows a long (the first or last of the range) is not remembered.
      boolean exact = start <= value && value - start < width;
      lastStart = start;
      lastId = exact ? id : -1;
    }
  }

  private void dictionaryIds(Vector vector, int[] sel, int n, int[] out) {
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
  }

  private int nullId() {
    if (nullId < 0) {
      nullId = values.size();
      values.add(null);
    }
    return nullId;
  }

  private int doubleId(double value) {
    double canonical = value == 0.0 ? 0.0 : value;
    long bits = Double.doubleToLongBits(canonical);
    int id = numbers.get(bits);
    return id >= 0 ? id : newNumber(bits, canonical);
  }

  /** A new id for {@code number}, the key of {@code value} (a long or a double). */
  private int newNumber(long number, Object value) {
    int id = values.size();
    values.add(value);
    numbers.put(number, id);
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

  SqlType type() {
    return type;
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
