package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/** {@code NOT operand}: NOT NULL is NULL. Normalised filters have no Not (see FilterNormalizer). */
public record Not(Expression operand) implements Expression {
  public Not {
    requireNonNull(operand, "operand is null");
    checkArgument(
        operand.type() == PrimitiveType.BOOLEAN, "NOT operand is not BOOLEAN: %s", operand);
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
  }

  @Override
  public List<Expression> children() {
    return List.of(operand);
  }

  @Override
  public String toString() {
    return "(NOT " + operand + ")";
  }
}
