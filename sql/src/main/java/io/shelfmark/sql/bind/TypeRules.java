package io.shelfmark.sql.bind;

import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.Optional;

/**
 * Which types mix, and into what: the common type of a comparison's operands and the result type of
 * arithmetic. Integral and DECIMAL types follow DuckDB's rules; FLOAT mixed with any other number
 * gives DOUBLE (DuckDB would give FLOAT, losing precision of a LONG); DATE mixes with the
 * timestamps as midnight UTC; a TIMESTAMP (no zone) mixes with TIMESTAMP_TZ as UTC.
 */
final class TypeRules {
  private TypeRules() {}

  /** The type both operands of a comparison are cast to, if they mix. */
  static Optional<SqlType> common(SqlType left, SqlType right) {
    if (left.equals(right)) {
      return Optional.of(left);
    }
    if (left.isNumeric() && right.isNumeric()) {
      return Optional.of(numeric(left, right));
    }
    if (isTemporal(left) && isTemporal(right)) {
      return Optional.of(
          left == PrimitiveType.TIMESTAMP_TZ || right == PrimitiveType.TIMESTAMP_TZ
              ? PrimitiveType.TIMESTAMP_TZ
              : PrimitiveType.TIMESTAMP);
    }
    return Optional.empty();
  }

  private static boolean isTemporal(SqlType type) {
    return type instanceof PrimitiveType primitive && primitive.isTemporal();
  }

  /** The common type of two numeric types. */
  static SqlType numeric(SqlType left, SqlType right) {
    if (left.equals(right)) {
      return left;
    }
    if (left == PrimitiveType.DOUBLE
        || right == PrimitiveType.DOUBLE
        || left == PrimitiveType.FLOAT
        || right == PrimitiveType.FLOAT) {
      return PrimitiveType.DOUBLE;
    }
    if (left.isIntegral() && right.isIntegral()) {
      return PrimitiveType.LONG;
    }
    DecimalType a = decimal(left);
    DecimalType b = decimal(right);
    int scale = Math.max(a.scale(), b.scale());
    int precision = Math.max(a.integerDigits(), b.integerDigits()) + scale;
    return precision <= DecimalType.MAX_PRECISION
        ? new DecimalType(precision, scale)
        : PrimitiveType.DOUBLE;
  }

  /** The result type of {@code left op right}, both numeric. */
  static SqlType arithmetic(ArithmeticOperator operator, SqlType left, SqlType right) {
    if (operator == ArithmeticOperator.DIVIDE) {
      return PrimitiveType.DOUBLE;
    }
    if (left == PrimitiveType.FLOAT && right == PrimitiveType.FLOAT) {
      return PrimitiveType.FLOAT;
    }
    if (!(left instanceof DecimalType) && !(right instanceof DecimalType)) {
      return numeric(left, right);
    }
    if (left == PrimitiveType.DOUBLE
        || right == PrimitiveType.DOUBLE
        || left == PrimitiveType.FLOAT
        || right == PrimitiveType.FLOAT) {
      return PrimitiveType.DOUBLE;
    }
    DecimalType a = decimal(left);
    DecimalType b = decimal(right);
    if (operator == ArithmeticOperator.MULTIPLY) {
      int scale = a.scale() + b.scale();
      if (scale > DecimalType.MAX_PRECISION) {
        return PrimitiveType.DOUBLE;
      }
      return new DecimalType(
          Math.min(DecimalType.MAX_PRECISION, Math.max(scale, a.precision() + b.precision())),
          scale);
    }
    int scale = Math.max(a.scale(), b.scale());
    int precision = Math.max(a.integerDigits(), b.integerDigits()) + 1 + scale;
    return new DecimalType(Math.min(DecimalType.MAX_PRECISION, precision), scale);
  }

  private static DecimalType decimal(SqlType type) {
    if (type instanceof DecimalType decimal) {
      return decimal;
    }
    return DecimalType.of((PrimitiveType) type);
  }
}
