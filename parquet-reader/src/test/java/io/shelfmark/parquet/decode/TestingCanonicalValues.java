package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.Float16;
import io.shelfmark.parquet.batch.Int96;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.TimeUnit;

/**
 * Turns decoded batches into canonical Java values to compare with DuckDB's: per row a leaf value
 * or a (nested) list of them. Leaves become Boolean, Float, Double, or a String in the same form
 * {@link TestingDuckDbOracle} asks DuckDB for (integers and decimals as text, dates as epoch days,
 * timestamps and times as epoch micros or nanos, strings as text, other binary as upper-case hex).
 */
final class TestingCanonicalValues {
  private TestingCanonicalValues() {}

  /** One canonical value per row of the batch. */
  static List<Object> rows(ColumnBatch batch) {
    List<Object> rows = new ArrayList<>(batch.rowCount());
    PrimitiveValues values = batch.values();
    for (int row = 0; row < batch.rowCount(); row++) {
      rows.add(
          batch.repetitionLevels() == 0 ? leaf(batch, values, row) : list(batch, values, 1, row));
    }
    return rows;
  }

  private static Object list(ColumnBatch batch, PrimitiveValues values, int level, int entry) {
    boolean[] nulls = batch.listNulls(level);
    if (nulls != null && nulls[entry]) {
      return null;
    }
    int[] offsets = batch.offsets(level);
    List<Object> list = new ArrayList<>(offsets[entry + 1] - offsets[entry]);
    for (int i = offsets[entry]; i < offsets[entry + 1]; i++) {
      list.add(
          level == batch.repetitionLevels()
              ? leaf(batch, values, i)
              : list(batch, values, level + 1, i));
    }
    return list;
  }

  private static Object leaf(ColumnBatch batch, PrimitiveValues values, int index) {
    if (batch.isNull(index)) {
      return null;
    }
    ColumnSchema column = batch.column();
    Optional<LogicalType> logical = column.logicalType();
    ConvertedType converted = column.convertedType().orElse(null);
    return switch (column.physicalType()) {
      case BOOLEAN -> values.booleans()[index];
      case FLOAT -> values.floats()[index];
      case DOUBLE -> values.doubles()[index];
      case INT32 -> int32(column, logical, converted, values.ints()[index]);
      case INT64 -> int64(column, logical, converted, values.longs()[index]);
      case INT96 ->
          Long.toString(Int96.toEpochMicros(values.binaryData(), values.binaryOffsets()[index]));
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY ->
          binary(column, logical, converted, values.binary(index));
    };
  }

  private static String int32(
      ColumnSchema column, Optional<LogicalType> logical, ConvertedType converted, int value) {
    if (isDecimal(logical, converted)) {
      return BigDecimal.valueOf(value, scale(column, logical)).toPlainString();
    }
    if (logical.map(LogicalType::isSetTIME).orElse(converted == ConvertedType.TIME_MILLIS)) {
      return Long.toString(value * 1000L);
    }
    if (isUnsigned(logical, converted)) {
      return Integer.toUnsignedString(value);
    }
    return Integer.toString(value);
  }

  private static String int64(
      ColumnSchema column, Optional<LogicalType> logical, ConvertedType converted, long value) {
    if (isDecimal(logical, converted)) {
      return BigDecimal.valueOf(value, scale(column, logical)).toPlainString();
    }
    TimeUnit unit = null;
    if (logical.isPresent() && logical.get().isSetTIMESTAMP()) {
      unit = logical.get().getTIMESTAMP().getUnit();
    } else if (logical.isPresent() && logical.get().isSetTIME()) {
      unit = logical.get().getTIME().getUnit();
    } else if (converted == ConvertedType.TIMESTAMP_MILLIS) {
      return Long.toString(value * 1000L);
    }
    if (unit != null) {
      return Long.toString(unit.isSetMILLIS() ? value * 1000L : value);
    }
    if (isUnsigned(logical, converted)) {
      return Long.toUnsignedString(value);
    }
    return Long.toString(value);
  }

  private static Object binary(
      ColumnSchema column, Optional<LogicalType> logical, ConvertedType converted, byte[] bytes) {
    if (isDecimal(logical, converted)) {
      return new BigDecimal(new BigInteger(bytes), scale(column, logical)).toPlainString();
    }
    if (logical.isPresent() && logical.get().isSetFLOAT16()) {
      return Float16.toFloat(bytes, 0);
    }
    if (logical.isPresent() && logical.get().isSetUUID()) {
      String hex = HexFormat.of().formatHex(bytes);
      return "%s-%s-%s-%s-%s"
          .formatted(
              hex.substring(0, 8),
              hex.substring(8, 12),
              hex.substring(12, 16),
              hex.substring(16, 20),
              hex.substring(20));
    }
    if (isText(logical, converted)) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
    return HexFormat.of().withUpperCase().formatHex(bytes);
  }

  static boolean isText(Optional<LogicalType> logical, ConvertedType converted) {
    if (logical.isPresent()) {
      LogicalType type = logical.get();
      return type.isSetSTRING() || type.isSetENUM() || type.isSetJSON();
    }
    return converted == ConvertedType.UTF8
        || converted == ConvertedType.ENUM
        || converted == ConvertedType.JSON;
  }

  static boolean isDecimal(Optional<LogicalType> logical, ConvertedType converted) {
    return logical.map(LogicalType::isSetDECIMAL).orElse(converted == ConvertedType.DECIMAL);
  }

  private static int scale(ColumnSchema column, Optional<LogicalType> logical) {
    return logical.isPresent() && logical.get().isSetDECIMAL()
        ? logical.get().getDECIMAL().getScale()
        : column.scale();
  }

  static boolean isUnsigned(Optional<LogicalType> logical, ConvertedType converted) {
    if (logical.isPresent() && logical.get().isSetINTEGER()) {
      return !logical.get().getINTEGER().isIsSigned();
    }
    return converted == ConvertedType.UINT_8
        || converted == ConvertedType.UINT_16
        || converted == ConvertedType.UINT_32
        || converted == ConvertedType.UINT_64;
  }
}
