package io.shelfmark.sql.plan;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.schema.BoundTable;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The logical plan of one query over one table, in evaluation order:
 *
 * <pre>
 *   rows of table
 *   → filter            (over rows; normalised: no NOT, flat AND/OR; absent = every row)
 *   → group by + aggregates   (aggregated queries: groupKeys and aggregate arguments over rows;
 *                              no GROUP BY but an aggregate = one group, even over no rows)
 *   → having            (over groups)
 *   → outputs           (over groups if aggregated, else over rows)
 *   → order by, offset, limit
 * </pre>
 *
 * A server executes the filter and the partial aggregation (or, for a non-aggregated query, the
 * filter, the outputs and a per-server ORDER BY + LIMIT of offset+limit rows); the broker merges,
 * applies HAVING, outputs, ORDER BY, OFFSET and LIMIT.
 *
 * @param table the table queried, with the schema the plan was bound against
 * @param filter the WHERE condition, normalised (see {@code FilterNormalizer}); empty when there is
 *     none or it folded to TRUE
 * @param aggregated whether the query aggregates (GROUP BY, an aggregate, or HAVING)
 * @param groupKeys GROUP BY expressions over rows, duplicates removed; referenced by {@code
 *     GroupKeyRef}
 * @param aggregates the aggregates, duplicates removed; referenced by {@code AggregateRef}
 * @param outputs the result columns, in select-list order ({@code *} expanded)
 * @param having the HAVING condition over groups
 * @param orderBy sort keys, most significant first
 * @param limit at most this many rows; empty = no limit (aggregated queries only)
 * @param offset rows skipped before the limit applies
 */
public record QueryPlan(
    BoundTable table,
    Optional<Expression> filter,
    boolean aggregated,
    List<Expression> groupKeys,
    List<AggregateCall> aggregates,
    List<OutputColumn> outputs,
    Optional<Expression> having,
    List<SortKey> orderBy,
    OptionalLong limit,
    long offset) {
  public QueryPlan {
    requireNonNull(table, "table is null");
    requireNonNull(filter, "filter is null");
    requireNonNull(groupKeys, "groupKeys is null");
    requireNonNull(aggregates, "aggregates is null");
    requireNonNull(outputs, "outputs is null");
    requireNonNull(having, "having is null");
    requireNonNull(orderBy, "orderBy is null");
    requireNonNull(limit, "limit is null");
    groupKeys = ImmutableList.copyOf(groupKeys);
    aggregates = ImmutableList.copyOf(aggregates);
    outputs = ImmutableList.copyOf(outputs);
    orderBy = ImmutableList.copyOf(orderBy);
    checkArgument(!outputs.isEmpty(), "a plan has at least one output");
    checkArgument(
        aggregated || (groupKeys.isEmpty() && aggregates.isEmpty() && having.isEmpty()),
        "a non-aggregated plan has no group keys, aggregates or HAVING");
    checkArgument(limit.orElse(0) >= 0, "limit is negative: %s", limit);
    checkArgument(offset >= 0, "offset is negative: %s", offset);
  }

  /**
   * The filter as a list of terms that must all be TRUE: the top-level AND's terms, or the filter
   * alone; empty when every row passes. This is what index evaluation walks first.
   */
  public List<Expression> filterConjuncts() {
    if (filter.isEmpty()) {
      return List.of();
    }
    return filter.get() instanceof And and ? and.terms() : List.of(filter.get());
  }

  /**
   * Every column and map key the query reads from the table (filter, group keys, aggregate
   * arguments, and outputs and sort keys of a non-aggregated query), in first-use order: what a
   * server must fetch or find in a segment's extracted columns.
   */
  public List<Expression> referencedColumns() {
    Set<Expression> columns = new LinkedHashSet<>();
    filter.ifPresent(expression -> collectColumns(expression, columns));
    groupKeys.forEach(expression -> collectColumns(expression, columns));
    for (AggregateCall aggregate : aggregates) {
      aggregate.argument().ifPresent(expression -> collectColumns(expression, columns));
    }
    if (!aggregated) {
      outputs.forEach(output -> collectColumns(output.expression(), columns));
      orderBy.forEach(key -> collectColumns(key.expression(), columns));
    }
    return List.copyOf(columns);
  }

  private static void collectColumns(Expression expression, Set<Expression> columns) {
    if (expression instanceof ColumnRef || expression instanceof MapKeyRef) {
      columns.add(expression);
      return;
    }
    for (Expression child : expression.children()) {
      collectColumns(child, columns);
    }
  }

  /** A readable multi-line rendering, one clause per line, for logs and EXPLAIN-like output. */
  public String explain() {
    List<String> lines = new ArrayList<>();
    lines.add("table: " + table.name());
    filter.ifPresent(expression -> lines.add("filter: " + expression));
    if (aggregated) {
      lines.add("group by: " + indexed("$key", groupKeys));
      lines.add("aggregates: " + indexed("$agg", aggregates));
    }
    having.ifPresent(expression -> lines.add("having: " + expression));
    lines.add("outputs: " + outputs);
    if (!orderBy.isEmpty()) {
      lines.add("order by: " + orderBy);
    }
    if (limit.isPresent() || offset > 0) {
      lines.add(
          "limit: " + (limit.isPresent() ? limit.getAsLong() : "none") + " offset: " + offset);
    }
    return String.join("\n", lines);
  }

  private static String indexed(String prefix, List<?> items) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      parts.add(prefix + i + " := " + items.get(i));
    }
    return parts.toString();
  }

  @Override
  public String toString() {
    return explain();
  }
}
