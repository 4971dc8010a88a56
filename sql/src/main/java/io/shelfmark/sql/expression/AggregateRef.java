package io.shelfmark.sql.expression;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.SqlType;
import java.util.List;

/** The result of aggregate {@code index} ({@code QueryPlan.aggregates()}) in an aggregated row. */
public record AggregateRef(int index, SqlType type) implements Expression {
  public AggregateRef {
    checkArgument(index >= 0, "index is negative: %s", index);
    requireNonNull(type, "type is null");
  }

  @Override
  public List<Expression> children() {
    return List.of();
  }

  @Override
  public String toString() {
    return "$agg" + index;
  }
}
