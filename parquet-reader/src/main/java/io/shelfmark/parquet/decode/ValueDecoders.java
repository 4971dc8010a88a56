package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.schema.ColumnSchema;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.Type;

/** The value decoder for a page's encoding and the column's physical type. */
final class ValueDecoders {
  private ValueDecoders() {}

  /**
   * A decoder of the {@code valueCount} non-null values in {@code data[offset, end)}.
   *
   * @param dictionary the chunk's dictionary, or null when none was read
   */
  static ValueDecoder create(
      Encoding encoding,
      ColumnSchema column,
      byte[] data,
      int offset,
      int end,
      int valueCount,
      PrimitiveValues dictionary)
      throws MalformedPageException, UnsupportedPageException {
    Type type = column.physicalType();
    switch (encoding) {
      case PLAIN:
        return plain(type, column.typeLength(), data, offset, end, valueCount);
      case PLAIN_DICTIONARY:
      case RLE_DICTIONARY:
        if (dictionary == null) {
          throw new MalformedPageException(
              "data page is %s-encoded but the column chunk has no dictionary page before it"
                  .formatted(encoding));
        }
        return new DictionaryIdDecoder(data, offset, end, dictionary);
      case RLE:
        if (type == Type.BOOLEAN) {
          return new RleBooleanDecoder(data, offset, end);
        }
        break;
      case DELTA_BINARY_PACKED:
        if (type == Type.INT32 || type == Type.INT64) {
          return new DeltaBinaryPackedDecoder(data, offset, end, type == Type.INT32);
        }
        break;
      case DELTA_LENGTH_BYTE_ARRAY:
        if (type == Type.BYTE_ARRAY) {
          return new DeltaLengthByteArrayDecoder(data, offset, end);
        }
        break;
      case DELTA_BYTE_ARRAY:
        if (type == Type.BYTE_ARRAY || type == Type.FIXED_LEN_BYTE_ARRAY) {
          return new DeltaByteArrayDecoder(
              data, offset, end, type == Type.BYTE_ARRAY ? -1 : column.typeLength());
        }
        break;
      case BYTE_STREAM_SPLIT:
        int width =
            switch (type) {
              case FLOAT, INT32 -> 4;
              case DOUBLE, INT64 -> 8;
              case FIXED_LEN_BYTE_ARRAY -> column.typeLength();
              default -> -1;
            };
        if (width > 0) {
          return new ByteStreamSplitDecoder(type, width, data, offset, end, valueCount);
        }
        break;
      default:
        break;
    }
    throw new UnsupportedPageException(
        "encoding %s for %s values".formatted(encoding, type),
        "the reader decodes PLAIN, dictionary, RLE booleans, DELTA_* and BYTE_STREAM_SPLIT as the format allows them");
  }

  static ValueDecoder plain(
      Type type, int typeLength, byte[] data, int offset, int end, int valueCount)
      throws MalformedPageException {
    return switch (type) {
      case BOOLEAN -> new PlainBooleanDecoder(data, offset, end);
      case INT32, INT64, FLOAT, DOUBLE ->
          new PlainFixedWidthDecoder(type, data, offset, end, valueCount);
      case BYTE_ARRAY -> new PlainBinaryDecoder(data, offset, end, -1, valueCount);
      case FIXED_LEN_BYTE_ARRAY ->
          new PlainBinaryDecoder(data, offset, end, typeLength, valueCount);
      case INT96 -> new PlainBinaryDecoder(data, offset, end, 12, valueCount);
    };
  }
}
