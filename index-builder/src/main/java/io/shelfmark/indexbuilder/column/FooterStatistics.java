package io.shelfmark.indexbuilder.column;

import io.shelfmark.parquet.metadata.ParquetFooter;
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
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.Statistics;

/**
 * Turns a column chunk's footer statistics into the segment's {@link ColumnStatistics}, keeping
 * only what is certain. Each rule errs towards "unknown", which a pruner reads as "might contain
 * anything":
 *
 * <ul>
 *   <li>{@code min_value}/{@code max_value} are used when exact; the deprecated {@code min}/{@code
 *       max} only for types whose legacy signed order is the segment's order (not for binary, whose
 *       legacy order was signed bytes, nor for unsigned integers).
 *   <li>A truncated bound ({@code is_min_value_exact} false) is not a value of the column: dropped.
 *   <li>Floating-point bounds that are NaN are dropped (writers disagree on NaN ordering), and the
 *       maximum of a floating-point column is always dropped: writers leave NaN values out of it,
 *       while SQL orders NaN above every number, so a footer maximum is not an upper bound.
 *   <li>Binary bounds that are not valid UTF-8 are dropped (a segment value is a string).
 *   <li>INT96 and FLOAT16 bounds are dropped (no defined order, or rarely written).
 * </ul>
 */
final class FooterStatistics {
  private FooterStatistics() {}

  /** The statistics of one column chunk; unknown parts stay empty. */
  static ColumnStatistics of(ColumnMetaData chunk, Conversion conversion, long rowCount) {
    if (!chunk.isSetStatistics()) {
      return ColumnStatistics.unknown(rowCount);
    }
    Statistics statistics = chunk.getStatistics();
    OptionalLong nullCount =
        statistics.isSetNull_count()
                && statistics.getNull_count() >= 0
                && statistics.getNull_count() <= rowCount
            ? OptionalLong.of(statistics.getNull_count())
            : OptionalLong.empty();
    Optional<Value> min = Optional.empty();
    Optional<Value> max = Optional.empty();
    boolean legacyOrder = conversion != Conversion.BINARY && conversion != Conversion.UINT32;
    if (statistics.isSetMin_value() && statistics.isSetMax_value()) {
      if (!statistics.isSetIs_min_value_exact() || statistics.isIs_min_value_exact()) {
        min = value(statistics.getMin_value(), conversion);
      }
      if (!statistics.isSetIs_max_value_exact() || statistics.isIs_max_value_exact()) {
        max = value(statistics.getMax_value(), conversion);
      }
    } else if (legacyOrder && statistics.isSetMin() && statistics.isSetMax()) {
      min = value(statistics.getMin(), conversion);
      max = value(statistics.getMax(), conversion);
    }
    if (conversion == Conversion.FLOAT || conversion == Conversion.DOUBLE) {
      max = Optional.empty();
    }
    if (min.isPresent() && max.isPresent() && min.get().compareTo(max.get()) > 0) {
      // Contradictory bounds say nothing reliable.
      min = Optional.empty();
      max = Optional.empty();
    }
    return new ColumnStatistics(rowCount, nullCount, min, max);
  }

  /** Statistics of a whole file: the row groups' combined, unknown when any row group's is. */
  static ColumnStatistics combine(ParquetFooter footer, ColumnStatistics[] rowGroups) {
    long rows = 0;
    long nulls = 0;
    boolean nullsKnown = true;
    // Each bound is known for the file only when every row group with values has it.
    boolean minKnown = true;
    boolean maxKnown = true;
    Optional<Value> min = Optional.empty();
    Optional<Value> max = Optional.empty();
    for (ColumnStatistics group : rowGroups) {
      rows += group.rowCount();
      nullsKnown &= group.nullCount().isPresent();
      nulls += group.nullCount().orElse(0);
      if (group.allNull() || group.rowCount() == 0) {
        continue; // no values: says nothing about the bounds
      }
      if (group.min().isEmpty()) {
        minKnown = false;
      } else if (min.isEmpty() || group.min().get().compareTo(min.get()) < 0) {
        min = group.min();
      }
      if (group.max().isEmpty()) {
        maxKnown = false;
      } else if (max.isEmpty() || group.max().get().compareTo(max.get()) > 0) {
        max = group.max();
      }
    }
    if (rows != footer.rowCount()) {
      return ColumnStatistics.unknown(footer.rowCount());
    }
    return new ColumnStatistics(
        rows,
        nullsKnown ? OptionalLong.of(nulls) : OptionalLong.empty(),
        minKnown ? min : Optional.empty(),
        maxKnown ? max : Optional.empty());
  }

  private static Optional<Value> value(byte[] bytes, Conversion conversion) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    return switch (conversion) {
      case BOOLEAN -> bytes.length == 1 ? Optional.of(Value.of(bytes[0] != 0 ? 1L : 0L)) : none();
      case INT32 -> bytes.length == 4 ? Optional.of(Value.of((long) buffer.getInt())) : none();
      case UINT32 ->
          bytes.length == 4
              ? Optional.of(Value.of(Integer.toUnsignedLong(buffer.getInt())))
              : none();
      case INT64 -> bytes.length == 8 ? Optional.of(Value.of(buffer.getLong())) : none();
      case FLOAT -> bytes.length == 4 ? finite(buffer.getFloat()) : none();
      case DOUBLE -> bytes.length == 8 ? finite(buffer.getDouble()) : none();
      case BINARY -> utf8(bytes);
      case INT96, FLOAT16 -> none();
    };
  }

  private static Optional<Value> finite(double value) {
    return Double.isNaN(value) ? none() : Optional.of(Value.of(value));
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
      return none(); // not text: no bound rather than a wrong one
    }
  }

  private static Optional<Value> none() {
    return Optional.empty();
  }
}
