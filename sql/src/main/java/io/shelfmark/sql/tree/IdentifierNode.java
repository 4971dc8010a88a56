package io.shelfmark.sql.tree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.SqlPosition;
import java.util.List;

/** A possibly qualified name as written: {@code org_id}, {@code m.org_id}. */
public record IdentifierNode(List<String> names, SqlPosition position) implements Node {
  public IdentifierNode {
    requireNonNull(names, "names is null");
    requireNonNull(position, "position is null");
    names = ImmutableList.copyOf(names);
    checkArgument(!names.isEmpty(), "an identifier has at least one name");
  }

  /** The last name: the column for {@code m.org_id}. */
  public String simpleName() {
    return names.getLast();
  }

  public boolean isSimple() {
    return names.size() == 1;
  }

  @Override
  public String sql() {
    return String.join(".", names);
  }
}
