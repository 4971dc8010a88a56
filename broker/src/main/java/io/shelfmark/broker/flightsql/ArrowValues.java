package io.shelfmark.broker.flightsql;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;

/**
 * Writes result values into Arrow vectors of the types {@link ArrowTypes} gives. The values are the
 * ones the HTTP answer carries ({@code ResultRendering}: dates and timestamps as text, binary as
 * hex, maps as maps of rendered values), turned back into the SQL type's exact value: a timestamp's
 * text holds every microsecond, so no value changes on the way.
 */
final class ArrowValues {
  /** {@code 2025-08-03 14:00:00}, optionally {@code .ffffff}, optionally {@code Z}. */
  private static final DateTimeFormatter TIMESTAMP =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .appendLiteral(' ')
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.MICRO_OF_SECOND, 0, 6, true)
          .optionalEnd()
          .optionalStart()
          .appendLiteral('Z')
          .optionalEnd()
          .toFormatter(java.util.Locale.ROOT);

  private ArrowValues() {}

  /** Sets {@code vector[index]} to {@code value} (null: a null) of SQL type {@code type}. */
  static void set(FieldVector vector, int index, SqlType type, Object value) {
    if (value == null) {
      vector.setNull(index);
      return;
    }
    if (type instanceof DecimalType) {
      ((DecimalVector) vector).setSafe(index, (BigDecimal) value);
      return;
    }
    if (type instanceof MapType map) {
      setMap((MapVector) vector, index, map, (Map<?, ?>) value);
      return;
    }
    switch ((PrimitiveType) type) {
      case BOOLEAN -> ((BitVector) vector).setSafe(index, (Boolean) value ? 1 : 0);
      case INT -> ((IntVector) vector).setSafe(index, ((Number) value).intValue());
      case LONG -> ((BigIntVector) vector).setSafe(index, ((Number) value).longValue());
      case FLOAT -> ((Float4Vector) vector).setSafe(index, ((Number) value).floatValue());
      case DOUBLE -> ((Float8Vector) vector).setSafe(index, ((Number) value).doubleValue());
      case DATE ->
          ((DateDayVector) vector)
              .setSafe(index, Math.toIntExact(LocalDate.parse((String) value).toEpochDay()));
      case TIMESTAMP, TIMESTAMP_TZ ->
          ((TimeStampVector) vector).setSafe(index, timestampMicros((String) value));
      case STRING -> ((VarCharVector) vector).setSafe(index, ((String) value).getBytes(UTF_8));
      case BINARY ->
          ((VarBinaryVector) vector).setSafe(index, HexFormat.of().parseHex((String) value));
    }
  }

  /** Microseconds since the epoch of a rendered timestamp (UTC when it ends with Z). */
  static long timestampMicros(String text) {
    LocalDateTime time = LocalDateTime.parse(text, TIMESTAMP);
    long seconds = time.toEpochSecond(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), time.getNano() / 1000);
  }

  private static void setMap(MapVector vector, int index, MapType type, Map<?, ?> map) {
    int start = vector.startNewValue(index);
    StructVector entries = (StructVector) vector.getDataVector();
    FieldVector keys = (FieldVector) entries.getChild(MapVector.KEY_NAME);
    FieldVector values = (FieldVector) entries.getChild(MapVector.VALUE_NAME);
    int at = start;
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      entries.setIndexDefined(at);
      ((VarCharVector) keys).setSafe(at, ((String) entry.getKey()).getBytes(UTF_8));
      set(values, at, type.valueType(), entry.getValue());
      at++;
    }
    vector.endValue(index, map.size());
  }
}
