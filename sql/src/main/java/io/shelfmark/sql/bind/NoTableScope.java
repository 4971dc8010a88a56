package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.IdentifierNode;
import io.shelfmark.sql.tree.Node;
import java.util.Optional;

/** Binding in a {@code SELECT} without {@code FROM}: there are no columns and no rows. */
final class NoTableScope implements Scope {
  @Override
  public Optional<Expression> replace(Node node) {
    return Optional.empty();
  }

  @Override
  public Expression identifier(IdentifierNode node) {
    throw SqlException.of(
        SqlErrorKind.UNRESOLVED,
        node.position(),
        "resolve column '" + node.sql() + "'",
        "a SELECT without FROM has no columns",
        "add FROM <table>");
  }

  @Override
  public Expression aggregate(FunctionNode node, BuiltinFunction function) {
    throw SqlException.of(
        SqlErrorKind.UNSUPPORTED,
        node.position(),
        "plan aggregate " + node.sql() + " without FROM",
        "a SELECT without FROM selects constants",
        "add FROM <table>");
  }
}
