package io.shelfmark.sql.bind;

import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.LikePattern;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.ValueOrder;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/**
 * Evaluates operators whose operands are all literals, at bind time, with exactly the semantics an
 * executor must have: {@code 1754229600000 - 3600000} becomes the LONG 1754226000000, so the filter
 * is a plain range an index answers.
 */
final class ConstantFolder {
  private ConstantFolder() {}

  /**
   * @throws ArithmeticException on integer overflow or a DECIMAL result past 38 digits
   */
  static Literal arithmetic(
      ArithmeticOperator operator, Literal left, Literal right, SqlType resultType) {
    if (left.isNull() || right.isNull()) {
      return Literal.nullOf(resultType);
    }
    Number a = (Number) left.value();
    Number b = (Number) right.value();
    if (resultType == PrimitiveType.DOUBLE) {
      return Literal.ofDouble(doubleOp(operator, a.doubleValue(), b.doubleValue()));
    }
    if (resultType == PrimitiveType.FLOAT) {
      return new Literal((float) doubleOp(operator, a.floatValue(), b.floatValue()), resultType);
    }
    if (resultType == PrimitiveType.INT) {
      return Literal.ofInt(Math.toIntExact(longOp(operator, a.longValue(), b.longValue())));
    }
    if (resultType == PrimitiveType.LONG) {
      return Literal.ofLong(longOp(operator, a.longValue(), b.longValue()));
    }
    DecimalType decimal = (DecimalType) resultType;
    BigDecimal x = decimal(a);
    BigDecimal y = decimal(b);
    BigDecimal result =
        switch (operator) {
          case ADD -> x.add(y);
          case SUBTRACT -> x.subtract(y);
          case MULTIPLY -> x.multiply(y);
          case DIVIDE, INTEGER_DIVIDE ->
              throw new IllegalArgumentException("DECIMAL division is DOUBLE");
        };
    BigDecimal scaled = result.setScale(decimal.scale());
    if (scaled.precision() - scaled.scale() > decimal.integerDigits()) {
      throw new ArithmeticException(
          "the result " + scaled.toPlainString() + " does not fit " + decimal.displayName());
    }
    return new Literal(scaled, decimal);
  }

  private static BigDecimal decimal(Number number) {
    return number instanceof BigDecimal decimal
        ? decimal
        : new BigDecimal(number.toString(), MathContext.UNLIMITED);
  }

  private static double doubleOp(ArithmeticOperator operator, double a, double b) {
    return switch (operator) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case DIVIDE -> a / b;
      case INTEGER_DIVIDE -> throw new IllegalArgumentException("integer division of doubles");
    };
  }

  private static long longOp(ArithmeticOperator operator, long a, long b) {
    return switch (operator) {
      case ADD -> Math.addExact(a, b);
      case SUBTRACT -> Math.subtractExact(a, b);
      case MULTIPLY -> Math.multiplyExact(a, b);
      case DIVIDE -> throw new IllegalArgumentException("integer division is DOUBLE");
      case INTEGER_DIVIDE -> a / b;
    };
  }

  /**
   * @throws ArithmeticException when negating the minimum INT or LONG
   */
  static Literal negate(Literal literal) {
    if (literal.isNull()) {
      return literal;
    }
    return switch (literal.value()) {
      case Integer value -> Literal.ofInt(Math.negateExact(value));
      case Long value -> Literal.ofLong(Math.negateExact(value));
      case Double value -> Literal.ofDouble(-value);
      case Float value -> new Literal(-value, literal.type());
      case BigDecimal value -> new Literal(value.negate(), literal.type());
      default -> throw new IllegalArgumentException("Cannot negate " + literal);
    };
  }

  /** {@code left op right} for two literals of one type: NULL if either is NULL. */
  static Literal compare(ComparisonOperator operator, Literal left, Literal right) {
    if (left.isNull() || right.isNull()) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    return Literal.of(operator.test(ValueOrder.compare(left.value(), right.value())));
  }

  /** {@code value BETWEEN low AND high} as {@code value >= low AND value <= high}. */
  static Literal between(Literal value, Literal low, Literal high, boolean negated) {
    Literal result =
        and(
            compare(ComparisonOperator.GREATER_THAN_OR_EQUAL, value, low),
            compare(ComparisonOperator.LESS_THAN_OR_EQUAL, value, high));
    return negated ? not(result) : result;
  }

  /** {@code value IN (items)} as an OR of equalities. */
  static Literal in(Literal value, List<Literal> items, boolean negated) {
    Literal result = Literal.of(false);
    for (Literal item : items) {
      result = or(result, compare(ComparisonOperator.EQUAL, value, item));
    }
    return negated ? not(result) : result;
  }

  static Literal like(Literal value, LikePattern pattern, boolean negated) {
    if (value.isNull()) {
      return Literal.nullOf(PrimitiveType.BOOLEAN);
    }
    boolean matches = pattern.matches((String) value.value());
    return Literal.of(matches != negated);
  }

  static Literal not(Literal value) {
    return value.isNull() ? value : Literal.of(!(Boolean) value.value());
  }

  private static Literal and(Literal a, Literal b) {
    if (Boolean.FALSE.equals(a.value()) || Boolean.FALSE.equals(b.value())) {
      return Literal.of(false);
    }
    return a.isNull() || b.isNull() ? Literal.nullOf(PrimitiveType.BOOLEAN) : Literal.of(true);
  }

  private static Literal or(Literal a, Literal b) {
    if (Boolean.TRUE.equals(a.value()) || Boolean.TRUE.equals(b.value())) {
      return Literal.of(true);
    }
    return a.isNull() || b.isNull() ? Literal.nullOf(PrimitiveType.BOOLEAN) : Literal.of(false);
  }
}
