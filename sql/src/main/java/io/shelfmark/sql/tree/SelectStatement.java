package io.shelfmark.sql.tree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.SqlPosition;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A query as written: the only statement Shelfmark accepts. Clauses are kept as the syntax tree;
 * nothing is resolved yet.
 *
 * @param distinct whether the select list is {@code SELECT DISTINCT}
 * @param from the table; empty for {@code SELECT 1} (a select list of constants)
 */
public record SelectStatement(
    boolean distinct,
    List<SelectItem> selectList,
    Optional<TableReference> from,
    Optional<Node> where,
    List<Node> groupBy,
    Optional<Node> having,
    List<OrderItem> orderBy,
    OptionalLong limit,
    OptionalLong offset,
    SqlPosition position) {
  public SelectStatement {
    requireNonNull(selectList, "selectList is null");
    requireNonNull(from, "from is null");
    requireNonNull(where, "where is null");
    requireNonNull(groupBy, "groupBy is null");
    requireNonNull(having, "having is null");
    requireNonNull(orderBy, "orderBy is null");
    requireNonNull(limit, "limit is null");
    requireNonNull(offset, "offset is null");
    requireNonNull(position, "position is null");
    selectList = ImmutableList.copyOf(selectList);
    groupBy = ImmutableList.copyOf(groupBy);
    orderBy = ImmutableList.copyOf(orderBy);
    checkArgument(!selectList.isEmpty(), "the select list is empty");
    checkArgument(limit.orElse(0) >= 0, "limit is negative: %s", limit);
    checkArgument(offset.orElse(0) >= 0, "offset is negative: %s", offset);
  }
}
