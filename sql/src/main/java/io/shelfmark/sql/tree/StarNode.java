package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.SqlPosition;
import java.util.List;

/** {@code *} in a select list or {@code COUNT(*)}, or {@code m.*} (qualifier {@code [m]}). */
public record StarNode(List<String> qualifier, SqlPosition position) implements Node {
  public StarNode {
    requireNonNull(qualifier, "qualifier is null");
    requireNonNull(position, "position is null");
    qualifier = ImmutableList.copyOf(qualifier);
  }

  @Override
  public String sql() {
    return qualifier.isEmpty() ? "*" : String.join(".", qualifier) + ".*";
  }
}
