package io.shelfmark.sql.bind;

import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.Node;
import java.util.Optional;

/**
 * What names and aggregates mean where an expression is bound: over the table's rows ({@link
 * RowScope}) or over the groups of an aggregated query ({@link GroupScope}). Not thread-safe: one
 * per query.
 */
interface Scope {
  /**
   * A replacement for the whole of {@code node} before it is bound structurally: a group key
   * reference when it is a GROUP BY expression. Empty to bind it structurally.
   */
  Optional<Expression> replace(Node node);

  /** A name: a column, or an output alias where the clause allows it. */
  Expression identifier(IdentifierNode node);

  /** An aggregate call, or an error where aggregates are not allowed. */
  Expression aggregate(FunctionNode node, BuiltinFunction function);
}
