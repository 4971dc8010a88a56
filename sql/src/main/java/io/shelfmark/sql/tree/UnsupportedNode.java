package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlPosition;
import org.jspecify.annotations.Nullable;

/**
 * An expression the parser understood but Shelfmark does not support (a subquery, CASE, CAST, a
 * window function, a parameter, an operator such as {@code ||}). The binder refuses it when it
 * reaches it, so errors come in query order: an unknown table is reported before an unsupported
 * expression in its WHERE clause.
 *
 * @param action what cannot be done, such as {@code plan subquery} (the message starts "Cannot ")
 * @param detail why, or null
 * @param hint what to do instead, or null
 */
public record UnsupportedNode(
    String action, @Nullable String detail, @Nullable String hint, SqlPosition position)
    implements Node {
  public UnsupportedNode {
    requireNonNull(action, "action is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String sql() {
    return "<" + action + ">";
  }
}
