package io.shelfmark.sql.plan;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.Expression;

/**
 * One ORDER BY key, evaluated like the outputs (over groups in an aggregated query, over rows
 * otherwise). The null order is always explicit; NULLs compare equal to each other.
 */
public record SortKey(Expression expression, SortDirection direction, NullOrder nullOrder) {
  public SortKey {
    requireNonNull(expression, "expression is null");
    requireNonNull(direction, "direction is null");
    requireNonNull(nullOrder, "nullOrder is null");
  }

  @Override
  public String toString() {
    return expression + " " + direction + " NULLS " + nullOrder;
  }
}
