package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;

/**
 * {@code value [NOT] BETWEEN low AND high}: exactly {@code value >= low AND value <= high} (and NOT
 * of that when negated) in three-valued logic, so {@code x BETWEEN NULL AND 5} is FALSE for x = 6
 * and NULL for x = 3. Bounds are not reordered: {@code BETWEEN 5 AND 1} matches nothing.
 */
public record Between(Expression value, Expression low, Expression high, boolean negated)
    implements Expression {
  public Between {
    requireNonNull(value, "value is null");
    requireNonNull(low, "low is null");
    requireNonNull(high, "high is null");
    checkArgument(
        value.type().equals(low.type()) && value.type().equals(high.type()),
        "BETWEEN operands differ in type: %s, %s, %s",
        value.type(),
        low.type(),
        high.type());
  }

  @Override
  public SqlType type() {
    return PrimitiveType.BOOLEAN;
  }

  @Override
  public List<Expression> children() {
    return List.of(value, low, high);
  }

  @Override
  public String toString() {
    return "(" + value + (negated ? " NOT" : "") + " BETWEEN " + low + " AND " + high + ")";
  }
}
