package io.shelfmark.sql.plan;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.Optional;

/**
 * One aggregate of an aggregated query: the function, its argument (over the table's rows; absent
 * for COUNT(*)) and its result type. Output, HAVING and ORDER BY expressions refer to it by index
 * with an {@code AggregateRef}. Equal calls are planned once: {@code SELECT SUM(x) ... ORDER BY
 * SUM(x)} has one aggregate.
 */
public record AggregateCall(
    AggregateFunction function, Optional<Expression> argument, SqlType type) {
  public AggregateCall {
    requireNonNull(function, "function is null");
    requireNonNull(argument, "argument is null");
    requireNonNull(type, "type is null");
    checkArgument(
        function.hasArgument() == argument.isPresent(),
        "%s %s an argument",
        function,
        function.hasArgument() ? "needs" : "takes no");
    argument.ifPresent(
        value ->
            checkArgument(
                function.accepts(value.type()), "%s does not accept %s", function, value.type()));
    checkArgument(
        type.equals(function.resultType(argument.map(Expression::type).orElse(type))),
        "%s of %s is not of type %s",
        function,
        argument,
        type);
  }

  /** An aggregate over {@code argument}, typed by the function's rule. */
  public static AggregateCall of(AggregateFunction function, Expression argument) {
    return new AggregateCall(function, Optional.of(argument), function.resultType(argument.type()));
  }

  public static AggregateCall countStar() {
    return new AggregateCall(
        AggregateFunction.COUNT_STAR,
        Optional.empty(),
        AggregateFunction.COUNT_STAR.resultType(PrimitiveType.LONG));
  }

  /** As SQL: {@code count(*)}, {@code sum(sum_rollup)}, {@code count(DISTINCT metric)}. */
  @Override
  public String toString() {
    return switch (function) {
      case COUNT_STAR -> "count(*)";
      case COUNT_DISTINCT -> "count(DISTINCT " + argument.orElseThrow() + ")";
      default -> function.sqlName() + "(" + argument.orElseThrow() + ")";
    };
  }
}
