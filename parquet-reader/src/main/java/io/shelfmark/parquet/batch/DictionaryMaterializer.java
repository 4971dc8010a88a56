package io.shelfmark.parquet.batch;

import org.apache.parquet.format.Type;

/** Turns dictionary ids back into values, for callers that want values rather than ids. */
final class DictionaryMaterializer {
  private DictionaryMaterializer() {}

  /** The values of {@code ids[0 .. count)}; id -1 (a null entry) becomes a default value. */
  static PrimitiveValues materialize(PrimitiveValues dictionary, int[] ids, int count) {
    ValueBuffer buffer = new ValueBuffer(dictionary.type());
    buffer.expect(count, binaryBytes(dictionary, ids, count));
    appendTo(buffer, dictionary, ids, 0, count);
    return buffer.toValues();
  }

  /** The bytes the binary values of the ids take (0 for other types), to size the buffer once. */
  private static long binaryBytes(PrimitiveValues dictionary, int[] ids, int count) {
    Type type = dictionary.type();
    if (type != Type.BYTE_ARRAY && type != Type.FIXED_LEN_BYTE_ARRAY && type != Type.INT96) {
      return 0;
    }
    int[] offsets = dictionary.binaryOffsets();
    long bytes = 0;
    for (int i = 0; i < count; i++) {
      int id = ids[i];
      if (id >= 0) {
        bytes += offsets[id + 1] - offsets[id];
      }
    }
    return bytes;
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
