package io.shelfmark.exchange.result;

import io.shelfmark.exchange.vector.Values;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How result values appear in the final table: Pinot's type names and JSON-friendly values.
 *
 * <pre>
 * SQL type        Pinot type     value
 * BOOLEAN         BOOLEAN        Boolean
 * INT             INT            Long
 * LONG            LONG           Long
 * FLOAT           FLOAT          Double (the float's exact value)
 * DOUBLE          DOUBLE         Double
 * DECIMAL(p,s)    BIG_DECIMAL    BigDecimal of scale s
 * DATE            STRING         "2025-08-03"
 * TIMESTAMP       TIMESTAMP      "2025-08-03 14:00:00" (".ffffff" added when not whole seconds)
 * TIMESTAMP_TZ    TIMESTAMP      "2025-08-03 14:00:00Z" (UTC; fraction as above)
 * STRING          STRING         String
 * BINARY          BYTES          lower-case hex, no prefix
 * MAP             MAP            (see the rendering of map values)
 * </pre>
 *
 * A MAP value (a preview's {@code SELECT *}) is rendered as a JSON object, Pinot's shape for
 * complex columns: its keys in file order, each value rendered by the rules above ({@code
 * {"service": "api", "region": "eu"}}).
 */
public final class ResultRendering {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private ResultRendering() {}

  public static String typeName(SqlType type) {
    if (type instanceof DecimalType) {
      return "BIG_DECIMAL";
    }
    // A map column has a type even when no row is read (SELECT * ... LIMIT 0): Pinot's MAP.
    if (type instanceof MapType) {
      return "MAP";
    }
    return switch ((PrimitiveType) type) {
      case BOOLEAN -> "BOOLEAN";
      case INT -> "INT";
      case LONG -> "LONG";
      case FLOAT -> "FLOAT";
      case DOUBLE -> "DOUBLE";
      case DATE, STRING -> "STRING";
      case TIMESTAMP, TIMESTAMP_TZ -> "TIMESTAMP";
      case BINARY -> "BYTES";
    };
  }

  public static Object render(SqlType type, Object value) {
    if (value == null) {
      return null;
    }
    if (type instanceof DecimalType) {
      return value;
    }
    if (type instanceof MapType map) {
      Map<String, Object> rendered = new LinkedHashMap<>();
      ((Map<?, ?>) value)
          .forEach((key, entry) -> rendered.put((String) key, render(map.valueType(), entry)));
      return rendered;
    }
    return switch ((PrimitiveType) type) {
      case BOOLEAN, STRING, DOUBLE -> value;
      case INT -> ((Number) value).longValue();
      case LONG -> value;
      case FLOAT -> ((Number) value).doubleValue();
      case DATE -> LocalDate.ofEpochDay(((Number) value).longValue()).toString();
      case TIMESTAMP -> timestamp((Long) value);
      case TIMESTAMP_TZ -> timestamp((Long) value) + "Z";
      case BINARY ->
          HexFormat.of()
              .formatHex(
                  value instanceof ByteBuffer buffer ? Values.bytes(buffer) : (byte[]) value);
    };
  }

  static String timestamp(long micros) {
    long seconds = Math.floorDiv(micros, 1_000_000L);
    int fraction = (int) Math.floorMod(micros, 1_000_000L);
    String text =
        LocalDateTime.ofEpochSecond(seconds, fraction * 1000, ZoneOffset.UTC).format(SECONDS);
    return fraction == 0 ? text : text + String.format(Locale.ROOT, ".%06d", fraction);
  }
}
