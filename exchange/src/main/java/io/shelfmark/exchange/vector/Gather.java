package io.shelfmark.exchange.vector;

/** Picks rows of a vector by index: the building block for map lookups and row selection. */
public final class Gather {
  private Gather() {}

  /**
   * A vector of {@code count} rows whose row {@code i} is row {@code indices[i]} of {@code source},
   * or NULL when that index is negative.
   */
  public static Vector gather(Vector source, int[] indices, int count) {
    boolean[] nulls = null;
    for (int i = 0; i < count; i++) {
      if (indices[i] < 0 || source.isNull(indices[i])) {
        if (nulls == null) {
          nulls = new boolean[count];
        }
        nulls[i] = true;
      }
    }
    if (source.isDictionaryEncoded()) {
      int[] in = source.ids();
      int[] out = new int[count];
      for (int i = 0; i < count; i++) {
        out[i] = indices[i] < 0 ? -1 : in[indices[i]];
      }
      return Vector.ofIds(source.type(), count, out, source.dictionary());
    }
    if (Vector.isLongType(source.type())) {
      long[] in = source.longs();
      long[] out = new long[count];
      for (int i = 0; i < count; i++) {
        out[i] = indices[i] < 0 ? 0 : in[indices[i]];
      }
      return Vector.ofLongs(source.type(), count, out, nulls);
    }
    if (Vector.isDoubleType(source.type())) {
      double[] in = source.doubles();
      double[] out = new double[count];
      for (int i = 0; i < count; i++) {
        out[i] = indices[i] < 0 ? 0 : in[indices[i]];
      }
      return Vector.ofDoubles(source.type(), count, out, nulls);
    }
    Object[] out = new Object[count];
    for (int i = 0; i < count; i++) {
      out[i] = indices[i] < 0 ? null : source.object(indices[i]);
    }
    return Vector.ofObjects(source.type(), count, out, nulls);
  }
}
