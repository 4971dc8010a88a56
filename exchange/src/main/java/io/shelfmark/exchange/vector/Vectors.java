package io.shelfmark.exchange.vector;

import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.util.List;

/** Vectors built from boxed values (finished groups, literals). */
public final class Vectors {
  private Vectors() {}

  /** A vector of {@code type} holding {@code values} (boxed as {@code SqlType} says; nulls ok). */
  public static Vector ofBoxed(SqlType type, List<Object> values) {
    int size = values.size();
    boolean[] nulls = null;
    for (int i = 0; i < size; i++) {
      if (values.get(i) == null) {
        if (nulls == null) {
          nulls = new boolean[size];
        }
        nulls[i] = true;
      }
    }
    if (Vector.isLongType(type)) {
      long[] out = new long[size];
      for (int i = 0; i < size; i++) {
        Object value = values.get(i);
        out[i] = value == null ? 0 : Values.toLong(value);
      }
      return Vector.ofLongs(type, size, out, nulls);
    }
    if (Vector.isDoubleType(type)) {
      double[] out = new double[size];
      for (int i = 0; i < size; i++) {
        Object value = values.get(i);
        out[i] = value == null ? 0 : ((Number) value).doubleValue();
      }
      return Vector.ofDoubles(type, size, out, nulls);
    }
    Object[] out = new Object[size];
    for (int i = 0; i < size; i++) {
      Object value = values.get(i);
      out[i] = value instanceof ByteBuffer buffer ? Values.bytes(buffer) : value;
    }
    return Vector.ofObjects(type, size, out, nulls);
  }
}
