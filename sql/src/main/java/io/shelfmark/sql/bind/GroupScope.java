package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.GroupKeyRef;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.function.FunctionRegistry;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.UnsupportedNode;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Binding over the groups of an aggregated query (SELECT, HAVING, ORDER BY). A subexpression equal
 * to a GROUP BY key becomes a {@link GroupKeyRef}; an aggregate call is bound over rows, added to
 * the shared aggregate list (once per distinct call) and becomes an {@link AggregateRef}; a column
 * or map key outside both is an error naming it.
 */
final class GroupScope implements Scope {
  private final ColumnResolver columns;
  private final FunctionRegistry functions;
  private final List<Expression> keys;
  private final List<AggregateCall> aggregates;
  private final ExpressionBinder rowBinder;
  private final ExpressionBinder argumentBinder;
  private final @Nullable OutputAliases aliases;
  private final String clause;

  /**
   * @param aggregates the query's aggregates so far; calls bound here are appended to it
   * @param aliases output names this clause may use (HAVING, ORDER BY), or null
   * @param clause SELECT, HAVING or ORDER BY, for messages
   */
  GroupScope(
      ColumnResolver columns,
      FunctionRegistry functions,
      List<Expression> keys,
      List<AggregateCall> aggregates,
      @Nullable OutputAliases aliases,
      String clause) {
    this.columns = requireNonNull(columns, "columns is null");
    this.functions = requireNonNull(functions, "functions is null");
    this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
    this.aggregates = requireNonNull(aggregates, "aggregates is null");
    this.aliases = aliases;
    this.clause = requireNonNull(clause, "clause is null");
    this.rowBinder = new ExpressionBinder(functions, new RowScope(columns, Clause.SELECT, null));
    this.argumentBinder =
        new ExpressionBinder(functions, new RowScope(columns, Clause.AGGREGATE_ARGUMENT, null));
  }

  @Override
  public Optional<Expression> replace(Node node) {
    if (node instanceof LiteralNode
        || node instanceof StarNode
        || node instanceof UnsupportedNode
        || AggregateBinder.containsAggregate(node, functions)) {
      return Optional.empty();
    }
    if (node instanceof IdentifierNode identifier && columns.find(identifier).isEmpty()) {
      return Optional.empty();
    }
    Expression bound;
    try {
      bound = rowBinder.bind(node);
    } catch (SqlException e) {
      if (e.kind() == SqlErrorKind.UNRESOLVED) {
        // A name that is no column (an output alias inside an expression, or a mistake): bind the
        // node part by part, which resolves the alias or reports the name in this clause's terms.
        return Optional.empty();
      }
      throw e;
    }
    int key = keys.indexOf(bound);
    if (key >= 0) {
      return Optional.of(new GroupKeyRef(key, bound.type()));
    }
    if (bound instanceof Literal) {
      return Optional.of(bound);
    }
    if (bound instanceof ColumnRef || bound instanceof MapKeyRef) {
      throw notGrouped(node);
    }
    return Optional.empty();
  }

  @Override
  public Expression identifier(IdentifierNode node) {
    if (aliases != null) {
      Optional<Expression> alias = aliases.find(node);
      if (alias.isPresent()) {
        return alias.get();
      }
    }
    if (columns.find(node).isPresent()) {
      throw notGrouped(node);
    }
    throw columns.unknown(node);
  }

  @Override
  public Expression aggregate(FunctionNode node, BuiltinFunction function) {
    AggregateCall call = AggregateBinder.bind(node, function, argumentBinder);
    int index = aggregates.indexOf(call);
    if (index < 0) {
      aggregates.add(call);
      index = aggregates.size() - 1;
    }
    return new AggregateRef(index, call.type());
  }

  private SqlException notGrouped(Node node) {
    return SqlException.of(
        SqlErrorKind.INVALID,
        node.position(),
        clause.equals("SELECT") ? "select " + node.sql() : "use " + node.sql() + " in " + clause,
        "it is neither in GROUP BY nor inside an aggregate",
        "add it to GROUP BY or aggregate it, such as MIN(" + node.sql() + ")");
  }
}
