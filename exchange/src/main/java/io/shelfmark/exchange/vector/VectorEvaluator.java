package io.shelfmark.exchange.vector;

import io.shelfmark.exchange.error.QueryExecutionException;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.Arithmetic;
import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.GroupKeyRef;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.expression.Negate;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;

/**
 * Evaluates an expression over a batch, a vector at a time: one loop over primitive arrays per
 * operator, no per-row dispatch. Boolean expressions (comparisons, BETWEEN, IN, IS NULL, LIKE,
 * AND/OR/NOT) are delegated to {@link PredicateEvaluator} and give BOOLEAN vectors in three-valued
 * logic (NULL where SQL says unknown).
 *
 * <p>Semantics follow docs/sql.md: integer arithmetic and DECIMAL results past 38 digits fail with
 * {@link QueryExecutionException} rather than wrap; {@code /} is floating-point division; FLOAT
 * arithmetic rounds to float. Stateless and thread safe.
 */
public final class VectorEvaluator {
  private static final long MICROS_PER_DAY = 86_400_000_000L;

  private VectorEvaluator() {}

  /** The vector of {@code expression} over a batch of {@code size} rows. */
  public static Vector evaluate(Expression expression, VectorInputs inputs, int size) {
    return switch (expression) {
      case ColumnRef _, MapKeyRef _, GroupKeyRef _, AggregateRef _ -> inputs.input(expression);
      case Literal literal -> Vector.constant(literal.type(), literal.value(), size);
      case Cast cast -> convert(evaluate(cast.operand(), inputs, size), cast.type());
      case Arithmetic arithmetic -> arithmetic(arithmetic, inputs, size);
      case Negate negate -> negate(evaluate(negate.operand(), inputs, size), negate);
      case DateTrunc trunc -> dateTrunc(trunc, evaluate(trunc.value(), inputs, size));
      default -> PredicateEvaluator.evaluate(expression, inputs, size);
    };
  }

  /** {@code vector} converted to {@code target} (a widening the binder planned). */
  public static Vector convert(Vector vector, SqlType target) {
    SqlType source = vector.type();
    if (source.equals(target)) {
      return vector;
    }
    int size = vector.size();
    boolean[] nulls = vector.nulls();
    if (Vector.isLongType(source) && Vector.isLongType(target)) {
      if (source == PrimitiveType.DATE && target != PrimitiveType.DATE) {
        long[] in = vector.longs();
        long[] out = new long[size];
        for (int i = 0; i < size; i++) {
          out[i] = in[i] * MICROS_PER_DAY;
        }
        return Vector.ofLongs(target, size, out, nulls);
      }
      return Vector.ofLongs(target, size, vector.longs(), nulls);
    }
    if (Vector.isLongType(source) && Vector.isDoubleType(target)) {
      long[] in = vector.longs();
      double[] out = new double[size];
      boolean toFloat = target == PrimitiveType.FLOAT;
      for (int i = 0; i < size; i++) {
        out[i] = toFloat ? (float) in[i] : (double) in[i];
      }
      return Vector.ofDoubles(target, size, out, nulls);
    }
    if (Vector.isDoubleType(source) && target == PrimitiveType.DOUBLE) {
      return Vector.ofDoubles(target, size, vector.doubles(), nulls);
    }
    if (target instanceof DecimalType decimal) {
      Object[] out = new Object[size];
      for (int i = 0; i < size; i++) {
        if (!vector.isNull(i)) {
          BigDecimal value =
              source instanceof DecimalType
                  ? vector.decimal(i)
                  : BigDecimal.valueOf(vector.longs()[i]);
          out[i] = checkPrecision(value.setScale(decimal.scale()), decimal, "CAST");
        }
      }
      return Vector.ofObjects(target, size, out, nulls);
    }
    if (source instanceof DecimalType && Vector.isDoubleType(target)) {
      double[] out = new double[size];
      for (int i = 0; i < size; i++) {
        if (!vector.isNull(i)) {
          out[i] = vector.decimal(i).doubleValue();
        }
      }
      return Vector.ofDoubles(target, size, out, nulls);
    }
    throw new UnsupportedQueryException(
        "Cannot cast %s to %s: this conversion is not supported by the server"
            .formatted(source.displayName(), target.displayName()));
  }

  private static BigDecimal checkPrecision(BigDecimal value, DecimalType type, String what) {
    if (value.precision() - value.scale() > DecimalType.MAX_PRECISION - type.scale()) {
      throw new QueryExecutionException(
          "Cannot compute %s: the result %s does not fit DECIMAL(38,%d) (use smaller values)"
              .formatted(what, value.toPlainString(), type.scale()));
    }
    return value;
  }

  private static Vector arithmetic(Arithmetic arithmetic, VectorInputs inputs, int size) {
    SqlType type = arithmetic.type();
    ArithmeticOperator operator = arithmetic.operator();
    SqlType operandType = operator == ArithmeticOperator.DIVIDE ? PrimitiveType.DOUBLE : type;
    Vector left = convert(evaluate(arithmetic.left(), inputs, size), operandType);
    Vector right = convert(evaluate(arithmetic.right(), inputs, size), operandType);
    boolean[] nulls = Nulls.union(left.nulls(), right.nulls(), size);
    if (Vector.isLongType(type)) {
      long[] a = left.longs();
      long[] b = right.longs();
      long[] out = new long[size];
      try {
        for (int i = 0; i < size; i++) {
          if (nulls == null || !nulls[i]) {
            out[i] =
                switch (operator) {
                  case ADD -> Math.addExact(a[i], b[i]);
                  case SUBTRACT -> Math.subtractExact(a[i], b[i]);
                  case MULTIPLY -> Math.multiplyExact(a[i], b[i]);
                  case DIVIDE -> throw new IllegalStateException("integer division");
                  case INTEGER_DIVIDE -> a[i] / b[i];
                };
            if (type == PrimitiveType.INT && out[i] != (int) out[i]) {
              throw new ArithmeticException("integer overflow");
            }
          }
        }
      } catch (ArithmeticException e) {
        throw overflow(arithmetic, type, e);
      }
      return Vector.ofLongs(type, size, out, nulls);
    }
    if (Vector.isDoubleType(type)) {
      double[] a = left.doubles();
      double[] b = right.doubles();
      double[] out = new double[size];
      boolean isFloat = type == PrimitiveType.FLOAT;
      for (int i = 0; i < size; i++) {
        double value =
            switch (operator) {
              case ADD -> a[i] + b[i];
              case SUBTRACT -> a[i] - b[i];
              case MULTIPLY -> a[i] * b[i];
              case DIVIDE -> a[i] / b[i];
              case INTEGER_DIVIDE -> throw new IllegalStateException("integer division of doubles");
            };
        out[i] = isFloat ? (float) value : value;
      }
      return Vector.ofDoubles(type, size, out, nulls);
    }
    if (type instanceof DecimalType decimal) {
      Object[] out = new Object[size];
      for (int i = 0; i < size; i++) {
        if (nulls == null || !nulls[i]) {
          BigDecimal a = left.decimal(i);
          BigDecimal b = right.decimal(i);
          BigDecimal value =
              switch (operator) {
                case ADD -> a.add(b);
                case SUBTRACT -> a.subtract(b);
                case MULTIPLY -> a.multiply(b);
                case DIVIDE, INTEGER_DIVIDE -> throw new IllegalStateException("decimal division");
              };
          out[i] = checkPrecision(value.setScale(decimal.scale()), decimal, arithmetic.toString());
        }
      }
      return Vector.ofObjects(type, size, out, nulls);
    }
    throw new UnsupportedQueryException(
        "Cannot compute %s: arithmetic on %s is not supported".formatted(arithmetic, type));
  }

  private static QueryExecutionException overflow(
      Expression expression, SqlType type, ArithmeticException cause) {
    return new QueryExecutionException(
        "Cannot compute %s: the result overflows %s (cast to a wider type or filter out the extreme values)"
            .formatted(expression, type.displayName()),
        cause);
  }

  private static Vector negate(Vector operand, Negate negate) {
    int size = operand.size();
    SqlType type = operand.type();
    if (Vector.isLongType(type)) {
      long[] in = operand.longs();
      long[] out = new long[size];
      for (int i = 0; i < size; i++) {
        if (!operand.isNull(i)) {
          if (in[i] == Long.MIN_VALUE
              || (type == PrimitiveType.INT && in[i] == Integer.MIN_VALUE)) {
            throw overflow(negate, type, new ArithmeticException("negation overflow"));
          }
          out[i] = -in[i];
        }
      }
      return Vector.ofLongs(type, size, out, operand.nulls());
    }
    if (Vector.isDoubleType(type)) {
      double[] in = operand.doubles();
      double[] out = new double[size];
      for (int i = 0; i < size; i++) {
        out[i] = -in[i];
      }
      return Vector.ofDoubles(type, size, out, operand.nulls());
    }
    Object[] out = new Object[size];
    for (int i = 0; i < size; i++) {
      if (!operand.isNull(i)) {
        out[i] = operand.decimal(i).negate();
      }
    }
    return Vector.ofObjects(type, size, out, operand.nulls());
  }

  private static Vector dateTrunc(DateTrunc trunc, Vector value) {
    int size = value.size();
    long[] in = value.longs();
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      if (!value.isNull(i)) {
        out[i] = trunc.truncate(in[i]);
      }
    }
    return Vector.ofLongs(trunc.type(), size, out, value.nulls());
  }
}
