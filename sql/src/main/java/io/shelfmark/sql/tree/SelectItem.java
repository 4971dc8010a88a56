package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import java.util.Optional;

/** One item of the select list: an expression (or a {@link StarNode}) and its alias if any. */
public record SelectItem(Node expression, Optional<String> alias, SqlPosition position) {
  public SelectItem {
    requireNonNull(expression, "expression is null");
    requireNonNull(alias, "alias is null");
    requireNonNull(position, "position is null");
  }
}
