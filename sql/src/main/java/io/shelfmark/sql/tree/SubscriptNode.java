package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;

/** {@code base[key]}: map access such as {@code dimensions['service']}. */
public record SubscriptNode(Node base, Node key, SqlPosition position) implements Node {
  public SubscriptNode {
    requireNonNull(base, "base is null");
    requireNonNull(key, "key is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String sql() {
    return base.sql() + "[" + key.sql() + "]";
  }
}
