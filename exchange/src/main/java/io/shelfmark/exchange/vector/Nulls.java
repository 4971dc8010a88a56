package io.shelfmark.exchange.vector;

/** Null-flag arrays: {@code null} stands for "no row is null". */
final class Nulls {
  private Nulls() {}

  /** Rows null in either input; {@code null} when neither has nulls. */
  static boolean[] union(boolean[] a, boolean[] b, int size) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    boolean[] out = new boolean[size];
    for (int i = 0; i < size; i++) {
      out[i] = a[i] || b[i];
    }
    return out;
  }
}
