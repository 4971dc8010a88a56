package io.shelfmark.sql.expression;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/** {@code value IS [NOT] NULL}: never NULL itself. */
public record IsNull(Expression value, boolean negated) implements Expression {
  public IsNull {
    requireNonNull(value, "value is null");
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
  }

  @Override
  public List<Expression> children() {
    return List.of(value);
  }

  @Override
  public String toString() {
    return "(" + value + (negated ? " IS NOT NULL)" : " IS NULL)");
  }
}
