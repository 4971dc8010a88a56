package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code -operand} on a number, of the operand's type; negating the minimum INT/LONG is an error.
 */
public record Negate(Expression operand) implements Expression {
  public Negate {
    requireNonNull(operand, "operand is null");
    checkArgument(operand.type().isNumeric(), "negating a non-number: %s", operand.type());
  }

  @Override
  public SqlType type() {
    return operand.type();
  }

  @Override
  public List<Expression> children() {
    return List.of(operand);
  }

  @Override
  public String toString() {
    return "(-" + operand + ")";
  }
}
