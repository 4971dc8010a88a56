package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Arithmetic;
import io.shelfmark.sql.expression.ArithmeticOperator;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.Locale;

/**
 * Pinot's epoch conversions, as LONG arithmetic on epoch milliseconds (Pinot computes them with
 * Java's {@code long} division, which truncates toward zero; for times after 1970 that is rounding
 * down):
 *
 * <pre>
 * ToEpochSeconds(ms)             ms / 1000                 (Minutes, Hours, Days alike)
 * ToEpochSecondsRounded(ms, n)   ms / (1000 * n) * n
 * ToEpochSecondsBucket(ms, n)    ms / (1000 * n)
 * FromEpochSeconds(s)            s * 1000
 * </pre>
 *
 * Constant arguments fold while planning.
 */
final class EpochFunctions {
  private EpochFunctions() {}

  static Expression bind(
      FunctionNode node, BuiltinFunction function, Expression value, long count) {
    if (value.type() != PrimitiveType.LONG && value.type() != PrimitiveType.INT) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          node.arguments().get(0).position(),
          "apply " + node.name() + " to " + node.arguments().get(0).sql(),
          "it is " + value.type().displayName() + ", not epoch time (BIGINT)",
          null);
    }
    Expression number =
        value.type() == PrimitiveType.INT ? new Cast(value, PrimitiveType.LONG) : value;
    long unit = unitMillis(node.name());
    Expression result =
        switch (function) {
          case TO_EPOCH -> divide(number, unit);
          case TO_EPOCH_BUCKET -> divide(number, Math.multiplyExact(unit, count));
          case TO_EPOCH_ROUNDED -> multiply(divide(number, Math.multiplyExact(unit, count)), count);
          case FROM_EPOCH -> multiply(number, unit);
          default -> throw new IllegalArgumentException("not an epoch function: " + function);
        };
    return fold(result);
  }

  /** The positive integer literal {@code n} of the Rounded and Bucket forms. */
  static long count(FunctionNode node, Node argument) {
    if (argument instanceof LiteralNode literal
        && literal.kind() == LiteralNode.Kind.EXACT_NUMBER) {
      try {
        long value = Long.parseLong(literal.value());
        if (value > 0) {
          return value;
        }
      } catch (NumberFormatException e) {
        // falls through to the error below
      }
    }
    throw SqlException.of(
        SqlErrorKind.INVALID,
        argument.position(),
        "use " + argument.sql() + " as the bucket size of " + node.name(),
        "it must be a positive integer literal",
        "write " + node.name() + "(millis, 5)");
  }

  private static Expression divide(Expression value, long divisor) {
    return new Arithmetic(
        ArithmeticOperator.INTEGER_DIVIDE, value, Literal.ofLong(divisor), PrimitiveType.LONG);
  }

  private static Expression multiply(Expression value, long factor) {
    return new Arithmetic(
        ArithmeticOperator.MULTIPLY, value, Literal.ofLong(factor), PrimitiveType.LONG);
  }

  // Literals fold with the executor's semantics, so a filter on ToEpochDays(<constant>) stays a
  // plain range.
  private static Expression fold(Expression expression) {
    if (expression instanceof Arithmetic arithmetic) {
      Expression left = fold(arithmetic.left());
      if (left instanceof Literal l && arithmetic.right() instanceof Literal r) {
        return ConstantFolder.arithmetic(arithmetic.operator(), l, r, arithmetic.type());
      }
      return new Arithmetic(arithmetic.operator(), left, arithmetic.right(), arithmetic.type());
    }
    if (expression instanceof Cast cast && cast.operand() instanceof Literal literal) {
      return literal.isNull()
          ? Literal.nullOf(cast.type())
          : Literal.ofLong(((Number) literal.value()).longValue());
    }
    return expression;
  }

  private static long unitMillis(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    if (lower.contains("seconds")) {
      return 1_000L;
    }
    if (lower.contains("minutes")) {
      return 60_000L;
    }
    if (lower.contains("hours")) {
      return 3_600_000L;
    }
    return 86_400_000L;
  }
}
