package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code value [NOT] LIKE pattern}: see {@link LikePattern} for the matching rules. NULL when the
 * value is NULL. The pattern is always a literal.
 */
public record Like(Expression value, LikePattern pattern, boolean negated) implements Expression {
  public Like {
    requireNonNull(value, "value is null");
    requireNonNull(pattern, "pattern is null");
    checkArgument(
        value.type() == PrimitiveType.STRING, "LIKE needs a STRING value: %s", value.type());
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
    return "(" + value + (negated ? " NOT LIKE " : " LIKE ") + pattern + ")";
  }
}
