package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code left <op> right}, both of one type. NULL if either side is NULL. When one side is a
 * literal, the binder puts it on the right, so an index sees {@code column op literal}.
 */
public record Comparison(ComparisonOperator operator, Expression left, Expression right)
    implements Expression {
  public Comparison {
    requireNonNull(operator, "operator is null");
    requireNonNull(left, "left is null");
    requireNonNull(right, "right is null");
    checkArgument(
        left.type().equals(right.type()),
        "operands of %s differ in type: %s and %s",
        operator,
        left.type(),
        right.type());
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
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
