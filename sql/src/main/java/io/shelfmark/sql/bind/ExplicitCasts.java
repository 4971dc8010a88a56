package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Arithmetic;
import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.tree.CastNode;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * SQL's explicit {@code CAST(x AS type)}, with DuckDB's results wherever both engines answer, and
 * Pinot's convention where only Pinot does:
 *
 * <ul>
 *   <li>to the value's own type: the value ({@code CAST(ts AS TIMESTAMP)}, the outer cast of
 *       Superset's time grains);
 *   <li>a literal: folded while planning. Strings parse as the target type (as in comparisons);
 *       numbers convert between numeric types, rounding half away from zero when the target has
 *       fewer decimals (DuckDB's rounding), and an out-of-range value is an error; integers,
 *       DECIMALs, booleans and dates become their SQL text; a TIMESTAMP becomes its DATE;
 *   <li>a column or expression: the exact widenings (INT to BIGINT, integers and DECIMALs to a
 *       DECIMAL with at least the source's decimals, numbers to DOUBLE or FLOAT, DATE to TIMESTAMP
 *       at midnight);
 *   <li>BIGINT or INT to TIMESTAMP: the value is epoch milliseconds, Pinot's convention for time
 *       columns ({@code CAST(millis AS TIMESTAMP)} in Superset's time grains). DuckDB refuses this
 *       cast, so here Shelfmark follows Pinot.
 * </ul>
 *
 * Every other conversion is refused with a message naming it: narrowing a column, numbers or
 * timestamps of a column to text, text of a column to anything. None of them is needed by the
 * dashboards' SQL, and each would need per-row evaluation that must match DuckDB's formatting.
 */
final class ExplicitCasts {
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  /** DuckDB's {@code DECIMAL} without a precision. */
  private static final DecimalType DEFAULT_DECIMAL = new DecimalType(18, 3);

  private ExplicitCasts() {}

  /** The SQL type {@code node} names. */
  static SqlType target(CastNode node) {
    PrimitiveType primitive =
        switch (node.typeName()) {
          case "BOOLEAN", "BOOL" -> PrimitiveType.BOOLEAN;
          case "INT", "INTEGER" -> PrimitiveType.INT;
          case "BIGINT", "LONG" -> PrimitiveType.LONG;
          case "FLOAT", "REAL" -> PrimitiveType.FLOAT;
          case "DOUBLE" -> PrimitiveType.DOUBLE;
          case "VARCHAR", "CHAR", "STRING", "TEXT" -> PrimitiveType.STRING;
          case "DATE" -> PrimitiveType.DATE;
          case "TIMESTAMP" -> PrimitiveType.TIMESTAMP;
          case "DECIMAL", "NUMERIC" -> null;
          default ->
              throw SqlException.of(
                  SqlErrorKind.UNSUPPORTED,
                  node.position(),
                  "plan CAST to " + node.typeSql(),
                  "this type is not supported",
                  "cast to BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), VARCHAR, DATE or"
                      + " TIMESTAMP");
        };
    if (primitive != null) {
      return primitive;
    }
    if (node.precision().isEmpty()) {
      return DEFAULT_DECIMAL;
    }
    int precision = node.precision().getAsInt();
    int scale = node.scale().orElse(0);
    if (precision < 1 || precision > DecimalType.MAX_PRECISION || scale > precision) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.position(),
          "plan CAST to " + node.typeSql(),
          "a DECIMAL has a precision of 1 to 38 and a scale of at most its precision",
          null);
    }
    return new DecimalType(precision, scale);
  }

  /** {@code operand} (null for the NULL literal) cast to {@code target} as {@code node} asks. */
  static Expression cast(@Nullable Expression operand, SqlType target, CastNode node) {
    if (operand == null) {
      return Literal.nullOf(target);
    }
    SqlType source = operand.type();
    if (source.equals(target)) {
      return operand;
    }
    if (operand instanceof Literal literal) {
      return literal(literal, target, node);
    }
    if (isWidening(source, target)) {
      return new Cast(operand, target);
    }
    if (target == PrimitiveType.TIMESTAMP
        && (source == PrimitiveType.LONG || source == PrimitiveType.INT)) {
      Expression millis =
          source == PrimitiveType.INT ? new Cast(operand, PrimitiveType.LONG) : operand;
      // Micros are millis * 1000; the LONG-to-TIMESTAMP cast then only relabels the number.
      return new Cast(
          new Arithmetic(
              ArithmeticOperator.MULTIPLY, millis, Literal.ofLong(1000), PrimitiveType.LONG),
          PrimitiveType.TIMESTAMP);
    }
    throw refused(node, source, target);
  }

  private static boolean isWidening(SqlType source, SqlType target) {
    if (source == PrimitiveType.INT && target == PrimitiveType.LONG) {
      return true;
    }
    if (source == PrimitiveType.DATE && target == PrimitiveType.TIMESTAMP) {
      return true;
    }
    boolean integral = source == PrimitiveType.INT || source == PrimitiveType.LONG;
    if ((integral || source instanceof DecimalType || source == PrimitiveType.FLOAT)
        && target == PrimitiveType.DOUBLE) {
      return true;
    }
    if (integral && target == PrimitiveType.FLOAT) {
      return true;
    }
    if (target instanceof DecimalType decimal) {
      if (source instanceof DecimalType from) {
        return decimal.scale() >= from.scale() && decimal.integerDigits() >= from.integerDigits();
      }
      return integral && decimal.integerDigits() >= (source == PrimitiveType.INT ? 10 : 19);
    }
    return false;
  }

  private static Literal literal(Literal literal, SqlType target, CastNode node) {
    if (literal.isNull()) {
      return Literal.nullOf(target);
    }
    SqlType source = literal.type();
    Object value = literal.value();
    if (value instanceof String) {
      return LiteralCasts.castForComparison(literal, target, node.position(), "CAST")
          .orElseThrow(() -> refused(node, source, target));
    }
    if (source.isNumeric() && target.isNumeric()) {
      return number(literal, target, node);
    }
    if (target == PrimitiveType.STRING) {
      return text(literal).map(Literal::ofString).orElseThrow(() -> refused(node, source, target));
    }
    if (source == PrimitiveType.DATE && target == PrimitiveType.TIMESTAMP) {
      return new Literal((Integer) value * MICROS_PER_DAY, target);
    }
    if (source == PrimitiveType.TIMESTAMP && target == PrimitiveType.DATE) {
      return new Literal(Math.toIntExact(Math.floorDiv((Long) value, MICROS_PER_DAY)), target);
    }
    if (target == PrimitiveType.TIMESTAMP
        && (source == PrimitiveType.LONG || source == PrimitiveType.INT)) {
      long millis = ((Number) value).longValue();
      return new Literal(Math.multiplyExact(millis, 1000L), target);
    }
    throw refused(node, source, target);
  }

  private static Literal number(Literal literal, SqlType target, CastNode node) {
    Optional<Literal> exact = LiteralCasts.exactNumeric(literal, target);
    if (exact.isPresent()) {
      return exact.get();
    }
    Object value = literal.value();
    BigDecimal decimal =
        value instanceof BigDecimal number
            ? number
            : value instanceof Double || value instanceof Float
                ? BigDecimal.valueOf(((Number) value).doubleValue())
                : BigDecimal.valueOf(((Number) value).longValue());
    int scale = target instanceof DecimalType type ? type.scale() : 0;
    BigDecimal rounded = decimal.setScale(scale, RoundingMode.HALF_UP);
    Optional<Literal> fitted =
        LiteralCasts.exactNumeric(new Literal(rounded, decimalOf(rounded)), target);
    return fitted.orElseThrow(
        () ->
            SqlException.of(
                SqlErrorKind.INVALID,
                node.position(),
                "cast " + literal + " to " + target.displayName(),
                "the value is out of the type's range",
                null));
  }

  private static DecimalType decimalOf(BigDecimal value) {
    int scale = Math.max(0, value.scale());
    int precision = Math.max(value.precision(), scale + 1);
    return new DecimalType(Math.min(precision, DecimalType.MAX_PRECISION), scale);
  }

  private static Optional<String> text(Literal literal) {
    Object value = literal.value();
    if (literal.type() == PrimitiveType.DATE) {
      return Optional.of(LocalDate.ofEpochDay((Integer) value).toString());
    }
    return switch (value) {
      case Integer number -> Optional.of(number.toString());
      case Long number when literal.type() == PrimitiveType.LONG -> Optional.of(number.toString());
      case BigDecimal number -> Optional.of(number.toPlainString());
      case Boolean bool -> Optional.of(bool.toString());
      default -> Optional.empty();
    };
  }

  private static SqlException refused(CastNode node, SqlType source, SqlType target) {
    return SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        node.position(),
        "cast "
            + node.operand().sql()
            + " from "
            + source.displayName()
            + " to "
            + target.displayName(),
        "this conversion is not supported",
        "supported: literals, widenings of numbers and DATE to TIMESTAMP, epoch milliseconds"
            + " (BIGINT) to TIMESTAMP");
  }
}
