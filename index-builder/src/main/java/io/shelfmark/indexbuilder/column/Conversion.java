package io.shelfmark.indexbuilder.column;

import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.UnsupportedParquetException;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.segment.spi.ValueType;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;

/**
 * How a Parquet leaf column's physical values become a segment {@link ValueType}: integers and
 * booleans widen to LONG (unsigned 32-bit integers without sign extension, INT96 timestamps to
 * epoch microseconds as Iceberg reads them), FLOAT and FLOAT16 widen to DOUBLE, byte arrays stay
 * bytes. Decimals and unsigned 64-bit integers have no faithful LONG form and are refused.
 */
enum Conversion {
  BOOLEAN(ValueType.LONG),
  INT32(ValueType.LONG),
  UINT32(ValueType.LONG),
  INT64(ValueType.LONG),
  INT96(ValueType.LONG),
  FLOAT(ValueType.DOUBLE),
  FLOAT16(ValueType.DOUBLE),
  DOUBLE(ValueType.DOUBLE),
  BINARY(ValueType.STRING);

  private final ValueType valueType;

  Conversion(ValueType valueType) {
    this.valueType = valueType;
  }

  ValueType valueType() {
    return valueType;
  }

  /**
   * The conversion of {@code leaf}'s values to {@code wanted}.
   *
   * @throws UnsupportedParquetException when the file stores the column in a type the segment
   *     cannot index as {@code wanted} (the table schema and the file disagree, or the type has no
   *     faithful form)
   */
  static Conversion of(ColumnSchema leaf, ValueType wanted, String column, ParquetLocation where)
      throws UnsupportedParquetException {
    Conversion conversion = physical(leaf);
    if (conversion == null || conversion.valueType != wanted) {
      throw new UnsupportedParquetException(
          where,
          "indexing column %s stored as %s as a %s column".formatted(column, leaf, wanted),
          "the table schema and the data file disagree on the column's type, or the type has no"
              + " faithful segment form; drop the column's indexes from the table config");
    }
    return conversion;
  }

  /** The conversion for the leaf's physical and logical type, or null when there is none. */
  static Conversion physical(ColumnSchema leaf) {
    LogicalType logical = leaf.logicalType().orElse(null);
    ConvertedType converted = leaf.convertedType().orElse(null);
    if ((logical != null && logical.isSetDECIMAL()) || converted == ConvertedType.DECIMAL) {
      return null;
    }
    boolean unsigned =
        (logical != null && logical.isSetINTEGER() && !logical.getINTEGER().isIsSigned())
            || converted == ConvertedType.UINT_8
            || converted == ConvertedType.UINT_16
            || converted == ConvertedType.UINT_32
            || converted == ConvertedType.UINT_64;
    return switch (leaf.physicalType()) {
      case BOOLEAN -> BOOLEAN;
      case INT32 -> unsigned ? UINT32 : INT32;
      case INT64 -> unsigned ? null : INT64;
      case INT96 -> INT96;
      case FLOAT -> FLOAT;
      case DOUBLE -> DOUBLE;
      case BYTE_ARRAY -> BINARY;
      case FIXED_LEN_BYTE_ARRAY ->
          logical != null && logical.isSetFLOAT16() && leaf.typeLength() == 2 ? FLOAT16 : BINARY;
    };
  }
}
