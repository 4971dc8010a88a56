package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A typed constant, after any implicit cast: {@code org_id = '184833768'} binds to the LONG literal
 * 184833768. The value uses the representation documented on {@link SqlType} (a DECIMAL's scale
 * equals its type's); a null value is SQL NULL of that type. BINARY, MAP and LIST literals can only
 * be NULL.
 */
public record Literal(@Nullable Object value, SqlType type) implements Expression {
  private static final DateTimeFormatter TIMESTAMP_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  public Literal {
    requireNonNull(type, "type is null");
    checkArgument(
        value == null || representable(value, type),
        "value %s (%s) is not a %s literal",
        value,
        value == null ? null : value.getClass().getSimpleName(),
        type);
  }

  private static boolean representable(Object value, SqlType type) {
    if (type instanceof DecimalType decimal) {
      return value instanceof BigDecimal number
          && number.scale() == decimal.scale()
          && number.precision() - number.scale() <= decimal.integerDigits();
    }
    if (!(type instanceof PrimitiveType primitive)) {
      return false;
    }
    return switch (primitive) {
      case BOOLEAN -> value instanceof Boolean;
      case INT, DATE -> value instanceof Integer;
      case LONG, TIMESTAMP, TIMESTAMP_TZ -> value instanceof Long;
      case FLOAT -> value instanceof Float;
      case DOUBLE -> value instanceof Double;
      case STRING -> value instanceof String;
      case BINARY -> false;
    };
  }

  public static Literal of(boolean value) {
    return new Literal(value, PrimitiveType.BOOLEAN);
  }

  public static Literal ofInt(int value) {
    return new Literal(value, PrimitiveType.INT);
  }

  public static Literal ofLong(long value) {
    return new Literal(value, PrimitiveType.LONG);
  }

  public static Literal ofDouble(double value) {
    return new Literal(value, PrimitiveType.DOUBLE);
  }

  public static Literal ofString(String value) {
    return new Literal(requireNonNull(value, "value is null"), PrimitiveType.STRING);
  }

  /** The NULL of {@code type}. */
  public static Literal nullOf(SqlType type) {
    return new Literal(null, type);
  }

  public boolean isNull() {
    return value == null;
  }

  @Override
  public List<Expression> children() {
    return List.of();
  }

  /** As SQL: {@code 'tk_cache'}, {@code 184833768}, {@code DATE '2025-08-03'}, {@code NULL}. */
  @Override
  public String toString() {
    if (value == null) {
      return "NULL";
    }
    if (type == PrimitiveType.STRING) {
      return LiteralNode.quote((String) value);
    }
    if (type == PrimitiveType.BOOLEAN) {
      return ((Boolean) value) ? "TRUE" : "FALSE";
    }
    if (type == PrimitiveType.DATE) {
      return "DATE '" + LocalDate.ofEpochDay((Integer) value) + "'";
    }
    if (type == PrimitiveType.TIMESTAMP || type == PrimitiveType.TIMESTAMP_TZ) {
      long micros = (Long) value;
      Instant instant =
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
      String text = LocalDateTime.ofInstant(instant, ZoneOffset.UTC).format(TIMESTAMP_TEXT);
      if (micros % 1_000_000L != 0) {
        text += String.format(Locale.ROOT, ".%06d", Math.floorMod(micros, 1_000_000L));
      }
      return type == PrimitiveType.TIMESTAMP
          ? "TIMESTAMP '" + text + "'"
          : "TIMESTAMP WITH TIME ZONE '" + text + "+00:00'";
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return value.toString();
  }
}
