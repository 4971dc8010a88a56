package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.tree.FunctionNode;

/**
 * Where in the query an expression is bound over rows, for the messages of misplaced aggregates.
 */
enum Clause {
  SELECT,
  WHERE,
  GROUP_BY,
  ORDER_BY,
  AGGREGATE_ARGUMENT;

  SqlException aggregateNotAllowed(FunctionNode node) {
    return switch (this) {
      case WHERE ->
          SqlException.of(
              SqlErrorKind.INVALID,
              node.position(),
              "use aggregate " + node.sql() + " in WHERE",
              "WHERE filters rows before they are aggregated",
              "move the condition to HAVING");
      case GROUP_BY ->
          SqlException.of(
              SqlErrorKind.INVALID,
              node.position(),
              "group by aggregate " + node.sql(),
              "GROUP BY keys are computed per row",
              "group by a column or an expression of columns");
      case AGGREGATE_ARGUMENT ->
          SqlException.of(
              SqlErrorKind.INVALID,
              node.position(),
              "nest aggregate " + node.sql(),
              "it is inside the argument of another aggregate",
              "aggregate a column or an expression of columns");
      case SELECT, ORDER_BY ->
          throw new IllegalStateException(
              "aggregate " + node.sql() + " in a query planned as not aggregated");
    };
  }
}
