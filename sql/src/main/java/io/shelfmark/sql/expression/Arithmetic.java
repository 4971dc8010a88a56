package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code left <op> right} on numbers, NULL if either is NULL. The result type follows DuckDB: for +
 * - * two integral operands give the wider of the two (INT or LONG) and overflow is an error; a
 * DECIMAL operand gives a DECIMAL wide enough for the exact result (an error past 38 digits); a
 * FLOAT or DOUBLE operand gives DOUBLE (FLOAT when no operand is DOUBLE), IEEE. {@code /} is always
 * DOUBLE division. Operands keep their own types; the executor converts them to the result type.
 */
public record Arithmetic(
    ArithmeticOperator operator, Expression left, Expression right, SqlType type)
    implements Expression {
  public Arithmetic {
    requireNonNull(operator, "operator is null");
    requireNonNull(left, "left is null");
    requireNonNull(right, "right is null");
    requireNonNull(type, "type is null");
    checkArgument(
        left.type().isNumeric() && right.type().isNumeric() && type.isNumeric(),
        "arithmetic on non-numbers: %s %s %s -> %s",
        left.type(),
        operator,
        right.type(),
        type);
  }

  @Override
  public List<Expression> children() {
    return List.of(left, right);
  }

  @Override
  public String toString() {
    return "(" + left + " " + operator.symbol() + " " + right + ")";
  }
}
