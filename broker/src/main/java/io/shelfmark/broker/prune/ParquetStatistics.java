package io.shelfmark.broker.prune;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.Value;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.types.Type;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Statistics;
import org.apache.parquet.format.TimeUnit;

/**
 * Converts a Parquet column chunk's footer statistics into the one {@link ColumnStatistics} shape,
 * for the Iceberg type the column has in the table's current schema. Only the exact-order fields
 * ({@code min_value}, {@code max_value}) are used: the deprecated {@code min}/{@code max} were
 * written in signed byte order for strings.
 *
 * <p>Bounds are kept when their meaning is certain: signed INT32/INT64 as integers, dates as days,
 * timestamps in micros (millis scaled up; nanos dropped), booleans as 0/1, UTF-8 strings. FLOAT and
 * DOUBLE keep only the lower bound: Parquet leaves NaN out of max_value, and SQL orders NaN above
 * every number (see {@link PruningStatistics}). Decimals, unsigned integers, binary and anything
 * else keep only the null count.
 */
final class ParquetStatistics {
  private ParquetStatistics() {}

  static ColumnStatistics of(SchemaElement element, ColumnMetaData chunk, long rows, Type type) {
    Statistics statistics = chunk.getStatistics();
    if (statistics == null) {
      return ColumnStatistics.unknown(rows);
    }
    OptionalLong nulls =
        statistics.isSetNull_count()
                && statistics.getNull_count() >= 0
                && statistics.getNull_count() <= rows
            ? OptionalLong.of(statistics.getNull_count())
            : OptionalLong.empty();
    Optional<Value> min = Optional.empty();
    Optional<Value> max = Optional.empty();
    if (statistics.isSetMin_value() && statistics.isSetMax_value()) {
      min = value(element, type, statistics.getMin_value());
      max = value(element, type, statistics.getMax_value());
      if (isFloatingPoint(element)) {
        max = Optional.empty();
      }
    }
    try {
      return new ColumnStatistics(rows, nulls, min, max);
    } catch (IllegalArgumentException e) {
      // min above max: statistics that contradict themselves say nothing.
      return new ColumnStatistics(rows, nulls, Optional.empty(), Optional.empty());
    }
  }

  private static boolean isFloatingPoint(SchemaElement element) {
    return element.getType() == org.apache.parquet.format.Type.FLOAT
        || element.getType() == org.apache.parquet.format.Type.DOUBLE;
  }

  private static Optional<Value> value(SchemaElement element, Type type, byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    LogicalType logical = element.isSetLogicalType() ? element.getLogicalType() : null;
    ConvertedType converted = element.isSetConverted_type() ? element.getConverted_type() : null;
    Type.TypeID id = type.typeId();
    return switch (element.getType()) {
      case BOOLEAN ->
          bytes.length == 1 && id == Type.TypeID.BOOLEAN
              ? Optional.of(Value.of(bytes[0] != 0 ? 1L : 0L))
              : Optional.empty();
      case INT32 ->
          bytes.length == 4
                  && signedInteger(logical, converted)
                  && (id == Type.TypeID.INTEGER || id == Type.TypeID.LONG || id == Type.TypeID.DATE)
              ? Optional.of(Value.of((long) buffer.getInt()))
              : Optional.empty();
      case INT64 ->
          bytes.length == 8 ? int64(logical, converted, id, buffer.getLong()) : Optional.empty();
      case FLOAT ->
          bytes.length == 4 && (id == Type.TypeID.FLOAT || id == Type.TypeID.DOUBLE)
              ? Optional.of(Value.of((double) buffer.getFloat()))
              : Optional.empty();
      case DOUBLE ->
          bytes.length == 8 && id == Type.TypeID.DOUBLE
              ? Optional.of(Value.of(buffer.getDouble()))
              : Optional.empty();
      case BYTE_ARRAY ->
          id == Type.TypeID.STRING
                  && ((logical != null && logical.isSetSTRING()) || converted == ConvertedType.UTF8)
              ? utf8(bytes)
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  private static Optional<Value> int64(
      LogicalType logical, ConvertedType converted, Type.TypeID id, long value) {
    if (id == Type.TypeID.LONG) {
      return signedInteger(logical, converted) ? Optional.of(Value.of(value)) : Optional.empty();
    }
    if (id != Type.TypeID.TIMESTAMP) {
      return Optional.empty();
    }
    TimeUnit unit = null;
    if (logical != null && logical.isSetTIMESTAMP()) {
      unit = logical.getTIMESTAMP().getUnit();
    } else if (converted == ConvertedType.TIMESTAMP_MICROS) {
      return Optional.of(Value.of(value));
    } else if (converted == ConvertedType.TIMESTAMP_MILLIS) {
      return millis(value);
    }
    if (unit == null) {
      return Optional.empty();
    }
    if (unit.isSetMICROS()) {
      return Optional.of(Value.of(value));
    }
    return unit.isSetMILLIS() ? millis(value) : Optional.empty();
  }

  private static Optional<Value> millis(long value) {
    try {
      return Optional.of(Value.of(Math.multiplyExact(value, 1000L)));
    } catch (ArithmeticException e) {
      return Optional.empty();
    }
  }

  /** A plain or signed integer (not unsigned, not decimal); dates too. */
  private static boolean signedInteger(LogicalType logical, ConvertedType converted) {
    if (logical != null) {
      if (logical.isSetINTEGER()) {
        return logical.getINTEGER().isIsSigned();
      }
      return logical.isSetDATE();
    }
    if (converted != null) {
      return switch (converted) {
        case INT_8, INT_16, INT_32, INT_64, DATE -> true;
        default -> false;
      };
    }
    return true;
  }

  private static Optional<Value> utf8(byte[] bytes) {
    try {
      CharBuffer text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes));
      return Optional.of(Value.of(text.toString()));
    } catch (CharacterCodingException e) {
      // A truncated bound may end inside a character: then it is no bound we can compare.
      return Optional.empty();
    }
  }
}
