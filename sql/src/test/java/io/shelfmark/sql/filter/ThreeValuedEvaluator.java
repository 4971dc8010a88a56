package io.shelfmark.sql.filter;

import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Like;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.Not;
import io.shelfmark.sql.expression.Or;
import io.shelfmark.sql.expression.ValueOrder;
import java.util.Map;

/**
 * A brute-force reference evaluator of filter expressions over one row, written straight from SQL's
 * three-valued definitions (null stands for NULL/unknown). Test-only: the oracle the normaliser's
 * output is checked against.
 */
final class ThreeValuedEvaluator {
  private ThreeValuedEvaluator() {}

  static Object evaluate(Expression expression, Map<String, Object> row) {
    return switch (expression) {
      case ColumnRef column -> row.get(column.name());
      case Literal literal -> literal.value();
      case Comparison comparison -> {
        Object left = evaluate(comparison.left(), row);
        Object right = evaluate(comparison.right(), row);
        yield left == null || right == null
            ? null
            : comparison.operator().test(ValueOrder.compare(left, right));
      }
      case Between between -> {
        // Defined as value >= low AND value <= high.
        Object value = evaluate(between.value(), row);
        Object low = evaluate(between.low(), row);
        Object high = evaluate(between.high(), row);
        Boolean aboveLow =
            value == null || low == null ? null : ValueOrder.compare(value, low) >= 0;
        Boolean belowHigh =
            value == null || high == null ? null : ValueOrder.compare(value, high) <= 0;
        Boolean result = and(aboveLow, belowHigh);
        yield between.negated() ? not(result) : result;
      }
      case InList in -> {
        // Defined as an OR of equalities.
        Object value = evaluate(in.value(), row);
        Boolean result = false;
        for (Literal item : in.items()) {
          Boolean equal =
              value == null || item.isNull() ? null : ValueOrder.compare(value, item.value()) == 0;
          result = or(result, equal);
        }
        yield in.negated() ? not(result) : result;
      }
      case IsNull isNull -> (evaluate(isNull.value(), row) == null) != isNull.negated();
      case Like like -> {
        Object value = evaluate(like.value(), row);
        yield value == null ? null : like.pattern().matches((String) value) != like.negated();
      }
      case Not not -> not((Boolean) evaluate(not.operand(), row));
      case And and -> {
        Boolean result = true;
        for (Expression term : and.terms()) {
          result = and(result, (Boolean) evaluate(term, row));
        }
        yield result;
      }
      case Or or -> {
        Boolean result = false;
        for (Expression term : or.terms()) {
          result = or(result, (Boolean) evaluate(term, row));
        }
        yield result;
      }
      default -> throw new IllegalArgumentException("not a filter expression: " + expression);
    };
  }

  static Boolean not(Boolean value) {
    return value == null ? null : !value;
  }

  static Boolean and(Boolean a, Boolean b) {
    if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
      return false;
    }
    return a == null || b == null ? null : true;
  }

  static Boolean or(Boolean a, Boolean b) {
    if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
      return true;
    }
    return a == null || b == null ? null : false;
  }
}
