package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.SortDirection;
import java.util.Optional;

/** One ORDER BY item: an expression, alias or ordinal; its direction; its null order if written. */
public record OrderItem(
    Node expression, SortDirection direction, Optional<NullOrder> nullOrder, SqlPosition position) {
  public OrderItem {
    requireNonNull(expression, "expression is null");
    requireNonNull(direction, "direction is null");
    requireNonNull(nullOrder, "nullOrder is null");
    requireNonNull(position, "position is null");
  }
}
