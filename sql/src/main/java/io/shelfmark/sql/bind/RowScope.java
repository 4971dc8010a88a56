package io.shelfmark.sql.bind;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.Node;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Binding over the table's rows: names are columns (then output aliases, where given); aggregates
 * are errors naming the clause.
 */
final class RowScope implements Scope {
  private final ColumnResolver columns;
  private final Clause clause;
  private final @Nullable OutputAliases aliases;

  RowScope(ColumnResolver columns, Clause clause, @Nullable OutputAliases aliases) {
    this.columns = requireNonNull(columns, "columns is null");
    this.clause = requireNonNull(clause, "clause is null");
    this.aliases = aliases;
  }

  @Override
  public Optional<Expression> replace(Node node) {
    return Optional.empty();
  }

  @Override
  public Expression identifier(IdentifierNode node) {
    if (columns.find(node).isPresent() || aliases == null) {
      return columns.resolve(node);
    }
    return aliases.find(node).orElseThrow(() -> columns.unknown(node));
  }

  @Override
  public Expression aggregate(FunctionNode node, BuiltinFunction function) {
    throw clause.aggregateNotAllowed(node);
  }
}
