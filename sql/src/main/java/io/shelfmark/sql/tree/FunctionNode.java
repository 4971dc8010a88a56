package io.shelfmark.sql.tree;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.SqlPosition;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A function call as written: {@code dateTrunc('second', logical_timestamp)}, {@code COUNT(*)} (one
 * {@link StarNode} argument), {@code COUNT(DISTINCT x)} ({@code distinct} set). The name is kept as
 * written; the binder resolves it case-insensitively.
 */
public record FunctionNode(
    String name, List<Node> arguments, boolean distinct, SqlPosition position) implements Node {
  public FunctionNode {
    requireNonNull(name, "name is null");
    requireNonNull(arguments, "arguments is null");
    requireNonNull(position, "position is null");
    arguments = ImmutableList.copyOf(arguments);
  }

  @Override
  public String sql() {
    return name.toLowerCase(Locale.ROOT)
        + "("
        + (distinct ? "DISTINCT " : "")
        + arguments.stream().map(Node::sql).collect(Collectors.joining(", "))
        + ")";
  }
}
