package io.shelfmark.parquet.batch;

/** Turns dictionary ids back into values, for callers that want values rather than ids. */
final class DictionaryMaterializer {
  private DictionaryMaterializer() {}

  /** The values of {@code ids[0 .. count)}; id -1 (a null entry) becomes a default value. */
  static PrimitiveValues materialize(PrimitiveValues dictionary, int[] ids, int count) {
    ValueBuffer buffer = new ValueBuffer(dictionary.type());
    appendTo(buffer, dictionary, ids, 0, count);
    return buffer.toValues();
  }

  /** Appends the values of {@code ids[offset .. offset + count)} to {@code buffer}. */
  static void appendTo(
      ValueBuffer buffer, PrimitiveValues dictionary, int[] ids, int offset, int count) {
    for (int i = offset; i < offset + count; i++) {
      int id = ids[i];
      if (id < 0) {
        buffer.appendDefaults(1);
      } else {
        buffer.appendFrom(dictionary, id);
      }
    }
  }
}
