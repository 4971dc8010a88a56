package io.shelfmark.sql.bind;

import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.function.BuiltinFunction;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.tree.CastNode;
import io.shelfmark.sql.tree.FunctionNode;
import io.shelfmark.sql.tree.LiteralNode;
import io.shelfmark.sql.tree.Node;
import io.shelfmark.sql.tree.OperatorNode;
import io.shelfmark.sql.tree.StarNode;
import io.shelfmark.sql.tree.SubscriptNode;

/** Binds an aggregate call's argument (over rows) and checks it against the function's rules. */
final class AggregateBinder {
  private AggregateBinder() {}

  static AggregateCall bind(
      FunctionNode node, BuiltinFunction builtin, ExpressionBinder argumentBinder) {
    if (builtin == BuiltinFunction.COUNT
        && node.arguments().size() == 1
        && node.arguments().getFirst() instanceof StarNode star) {
      if (node.distinct() || !star.qualifier().isEmpty()) {
        throw invalid(node, "only COUNT(*) takes a star", "write COUNT(*) or COUNT(DISTINCT col)");
      }
      return AggregateCall.countStar();
    }
    if (node.arguments().size() != 1) {
      throw invalid(
          node, node.name() + " takes one argument, not " + node.arguments().size(), null);
    }
    Node argumentNode = node.arguments().getFirst();
    if (argumentNode instanceof StarNode) {
      throw invalid(node, "only COUNT takes *", null);
    }
    AggregateFunction function = function(node, builtin);
    if (argumentNode instanceof LiteralNode literal && literal.kind() == LiteralNode.Kind.NULL) {
      throw invalid(node, "the type of its NULL argument is unknown", "aggregate a column");
    }
    Expression argument = argumentBinder.bind(argumentNode);
    if (!function.accepts(argument.type())) {
      throw SqlException.of(
          SqlErrorKind.INVALID,
          argumentNode.position(),
          "apply " + node.name() + " to " + argumentNode.sql(),
          "it is " + argument.type().displayName(),
          node.name() + " takes " + function.argumentRequirement());
    }
    return AggregateCall.of(function, argument);
  }

  private static AggregateFunction function(FunctionNode node, BuiltinFunction builtin) {
    if (node.distinct() && builtin != BuiltinFunction.COUNT) {
      throw SqlException.of(
          SqlErrorKind.UNSUPPORTED,
          node.position(),
          "plan " + node.sql(),
          "DISTINCT is supported in COUNT only",
          "use COUNT(DISTINCT col)");
    }
    return switch (builtin) {
      case COUNT -> node.distinct() ? AggregateFunction.COUNT_DISTINCT : AggregateFunction.COUNT;
      case SUM -> AggregateFunction.SUM;
      case AVG -> AggregateFunction.AVG;
      case MIN -> AggregateFunction.MIN;
      case MAX -> AggregateFunction.MAX;
      case DISTINCT_COUNT -> AggregateFunction.COUNT_DISTINCT;
      case DISTINCT_COUNT_HLL -> AggregateFunction.DISTINCT_COUNT_HLL;
      case DATE_TRUNC,
          DATETIMECONVERT,
          ROUND,
          FROM_DATE_TIME,
          TO_DATE_TIME,
          TO_EPOCH,
          TO_EPOCH_ROUNDED,
          TO_EPOCH_BUCKET,
          FROM_EPOCH,
          ELEMENT_AT ->
          throw new IllegalArgumentException("not an aggregate: " + builtin);
    };
  }

  private static SqlException invalid(FunctionNode node, String detail, String hint) {
    return SqlException.of(
        SqlErrorKind.INVALID, node.position(), "call " + node.sql(), detail, hint);
  }

  /** Whether {@code node} holds an aggregate call anywhere (an aggregated query's sign). */
  static boolean containsAggregate(
      Node node, io.shelfmark.sql.function.FunctionRegistry functions) {
    return switch (node) {
      case FunctionNode function ->
          functions.lookup(function.name()).map(BuiltinFunction::isAggregate).orElse(false)
              || function.arguments().stream()
                  .anyMatch(child -> containsAggregate(child, functions));
      case OperatorNode operator ->
          operator.operands().stream().anyMatch(child -> containsAggregate(child, functions));
      case CastNode cast -> containsAggregate(cast.operand(), functions);
      case SubscriptNode subscript ->
          containsAggregate(subscript.base(), functions)
              || containsAggregate(subscript.key(), functions);
      default -> false;
    };
  }
}
