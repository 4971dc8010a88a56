package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.schema.ColumnRole;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.util.List;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FieldRepetitionType;
import org.apache.parquet.format.Type;

/** Decodes a dictionary page's PLAIN values into a {@link PrimitiveValues}. */
final class DictionaryPageDecoder {
  private DictionaryPageDecoder() {}

  static PrimitiveValues decode(
      ColumnSchema column, Encoding encoding, byte[] data, int offset, int end, int count)
      throws MalformedPageException, UnsupportedPageException {
    if (encoding != Encoding.PLAIN && encoding != Encoding.PLAIN_DICTIONARY) {
      throw new UnsupportedPageException(
          "dictionary page encoding " + encoding, "dictionary pages must be PLAIN");
    }
    if (count < 0) {
      throw new MalformedPageException("dictionary page declares %d values".formatted(count));
    }
    Type type = column.physicalType();
    // Each value takes at least one byte (a bit for booleans): a count past that is a lie, and
    // is refused before anything is allocated for it.
    long minimumBytes =
        switch (type) {
          case BOOLEAN -> ((long) count + 7) / 8;
          case INT32, FLOAT -> count * 4L;
          case INT64, DOUBLE -> count * 8L;
          case INT96 -> count * 12L;
          case FIXED_LEN_BYTE_ARRAY -> count * (long) column.typeLength();
          case BYTE_ARRAY -> count * 4L;
        };
    if (minimumBytes > end - offset) {
      throw new MalformedPageException(
          "dictionary page declares %d %s values but holds only %d bytes"
              .formatted(count, type, end - offset));
    }
    // The dictionary is collected as a flat, required batch of the same physical type.
    ColumnSchema flat =
        new ColumnSchema(
            column.index(),
            column.path(),
            type,
            column.typeLength(),
            column.logicalType(),
            column.convertedType(),
            column.precision(),
            column.scale(),
            FieldRepetitionType.REQUIRED,
            0,
            0,
            List.of(),
            ColumnRole.FIELD,
            column.fieldPath());
    ColumnBatch.Builder builder = ColumnBatch.builder(flat);
    ValueDecoders.plain(type, column.typeLength(), data, offset, end, count).read(count, builder);
    return builder.build().values();
  }
}
