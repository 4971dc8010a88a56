package io.shelfmark.exchange.vector;

import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Like;
import io.shelfmark.sql.expression.LikePattern;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.Not;
import io.shelfmark.sql.expression.Or;
import io.shelfmark.sql.expression.ValueOrder;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.List;

/**
 * Boolean expressions over a batch in SQL's three-valued logic: each gives a BOOLEAN vector whose
 * longs are 0/1 and whose nulls mark UNKNOWN. A row passes a filter only when TRUE ({@link
 * #isTrue}). Comparisons of dictionary-encoded strings with a literal are decided once per
 * dictionary entry, not per row. Stateless and thread safe.
 */
public final class PredicateEvaluator {
  private PredicateEvaluator() {}

  /** Whether row {@code row} of a BOOLEAN vector is TRUE (not FALSE, not NULL). */
  public static boolean isTrue(Vector condition, int row) {
    return condition.longs()[row] != 0 && !condition.isNull(row);
  }

  static Vector evaluate(Expression expression, VectorInputs inputs, int size) {
    return switch (expression) {
      case Comparison comparison -> comparison(comparison, inputs, size);
      case Between between -> between(between, inputs, size);
      case InList in -> in(in, inputs, size);
      case IsNull isNull -> isNull(isNull, inputs, size);
      case Like like -> like(like, inputs, size);
      case And and -> combine(and.terms(), true, inputs, size);
      case Or or -> combine(or.terms(), false, inputs, size);
      case Not not -> not(VectorEvaluator.evaluate(not.operand(), inputs, size));
      default ->
          throw new UnsupportedQueryException(
              "Cannot evaluate %s: this expression is not supported by the server"
                  .formatted(expression));
    };
  }

  private static Vector comparison(Comparison comparison, VectorInputs inputs, int size) {
    Vector left = VectorEvaluator.evaluate(comparison.left(), inputs, size);
    ComparisonOperator operator = comparison.operator();
    if (comparison.right() instanceof Literal literal) {
      return compareWithConstant(left, operator, literal.value(), size);
    }
    Vector right = VectorEvaluator.evaluate(comparison.right(), inputs, size);
    boolean[] nulls = Nulls.union(left.nulls(), right.nulls(), size);
    long[] out = new long[size];
    if (Vector.isLongType(left.type())) {
      long[] a = left.longs();
      long[] b = right.longs();
      for (int i = 0; i < size; i++) {
        out[i] = operator.test(Long.compare(a[i], b[i])) ? 1 : 0;
      }
    } else if (Vector.isDoubleType(left.type())) {
      double[] a = left.doubles();
      double[] b = right.doubles();
      for (int i = 0; i < size; i++) {
        out[i] = operator.test(ValueOrder.compareFloating(a[i], b[i])) ? 1 : 0;
      }
    } else {
      for (int i = 0; i < size; i++) {
        if (nulls == null || !nulls[i]) {
          out[i] = operator.test(Values.compare(left.object(i), right.object(i))) ? 1 : 0;
        }
      }
    }
    return Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, nulls);
  }

  /** {@code left op constant}; a NULL constant makes every row UNKNOWN. */
  static Vector compareWithConstant(
      Vector left, ComparisonOperator operator, Object constant, int size) {
    if (constant == null) {
      return Vector.allNull(PrimitiveType.BOOLEAN, size);
    }
    long[] out = new long[size];
    if (Vector.isLongType(left.type())) {
      long[] a = left.longs();
      long b = Values.toLong(constant);
      for (int i = 0; i < size; i++) {
        out[i] = operator.test(Long.compare(a[i], b)) ? 1 : 0;
      }
    } else if (Vector.isDoubleType(left.type())) {
      double[] a = left.doubles();
      double b = ((Number) constant).doubleValue();
      for (int i = 0; i < size; i++) {
        out[i] = operator.test(ValueOrder.compareFloating(a[i], b)) ? 1 : 0;
      }
    } else if (left.isDictionaryEncoded()) {
      byte[] decided = new byte[left.dictionary().size()];
      int[] ids = left.ids();
      for (int i = 0; i < size; i++) {
        int id = ids[i];
        if (id >= 0) {
          if (decided[id] == 0) {
            boolean test = operator.test(Values.compare(left.dictionary().value(id), constant));
            decided[id] = (byte) (test ? 2 : 1);
          }
          out[i] = decided[id] - 1;
        }
      }
    } else {
      for (int i = 0; i < size; i++) {
        Object value = left.object(i);
        if (value != null) {
          out[i] = operator.test(Values.compare(value, constant)) ? 1 : 0;
        }
      }
    }
    return Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, left.nulls());
  }

  private static Vector between(Between between, VectorInputs inputs, int size) {
    Comparison low =
        new Comparison(ComparisonOperator.GREATER_THAN_OR_EQUAL, between.value(), between.low());
    Comparison high =
        new Comparison(ComparisonOperator.LESS_THAN_OR_EQUAL, between.value(), between.high());
    Vector result = combine(List.of(low, high), true, inputs, size);
    return between.negated() ? not(result) : result;
  }

  private static Vector in(InList in, VectorInputs inputs, int size) {
    Vector value = VectorEvaluator.evaluate(in.value(), inputs, size);
    InItems items = InItems.of(in);
    boolean hasNull = in.hasNullItem();
    long[] out = new long[size];
    boolean[] nulls = value.nulls() == null ? null : value.nulls().clone();
    // Per row: TRUE if an item equals it; else NULL when an item is NULL; else FALSE.
    // A dictionary-encoded vector is searched once per dictionary entry, not per row.
    byte[] decided = value.isDictionaryEncoded() ? new byte[value.dictionary().size()] : null;
    for (int i = 0; i < size; i++) {
      if (value.isNull(i)) {
        continue;
      }
      boolean found;
      if (items.size() == 0) {
        found = false;
      } else if (Vector.isLongType(value.type())) {
        found = items.containsLong(value.longs()[i]);
      } else if (Vector.isDoubleType(value.type())) {
        found = items.containsDouble(value.doubles()[i]);
      } else if (decided != null) {
        int id = value.ids()[i];
        if (id < 0) {
          continue; // no value: the vector's nulls already say UNKNOWN
        }
        if (decided[id] == 0) {
          decided[id] = (byte) (items.containsObject(value.dictionary().value(id)) ? 2 : 1);
        }
        found = decided[id] == 2;
      } else {
        found = items.containsObject(value.object(i));
      }
      if (found) {
        out[i] = 1;
      } else if (hasNull) {
        if (nulls == null) {
          nulls = new boolean[size];
        }
        nulls[i] = true;
      }
    }
    Vector result = Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, nulls);
    return in.negated() ? not(result) : result;
  }

  private static Vector isNull(IsNull isNull, VectorInputs inputs, int size) {
    Vector value = VectorEvaluator.evaluate(isNull.value(), inputs, size);
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = value.isNull(i) != isNull.negated() ? 1 : 0;
    }
    return Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, null);
  }

  private static Vector like(Like like, VectorInputs inputs, int size) {
    Vector value = VectorEvaluator.evaluate(like.value(), inputs, size);
    LikePattern pattern = like.pattern();
    long[] out = new long[size];
    if (value.isDictionaryEncoded()) {
      byte[] decided = new byte[value.dictionary().size()];
      int[] ids = value.ids();
      for (int i = 0; i < size; i++) {
        int id = ids[i];
        if (id >= 0) {
          if (decided[id] == 0) {
            decided[id] = (byte) (pattern.matches((String) value.dictionary().value(id)) ? 2 : 1);
          }
          out[i] = decided[id] - 1;
        }
      }
    } else {
      for (int i = 0; i < size; i++) {
        Object text = value.object(i);
        if (text != null) {
          out[i] = pattern.matches((String) text) ? 1 : 0;
        }
      }
    }
    Vector result = Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, value.nulls());
    return like.negated() ? not(result) : result;
  }

  /** AND (FALSE wins, then NULL) or OR (TRUE wins, then NULL) of the terms. */
  private static Vector combine(
      List<Expression> terms, boolean isAnd, VectorInputs inputs, int size) {
    long[] out = new long[size];
    java.util.Arrays.fill(out, isAnd ? 1 : 0);
    boolean[] unknown = new boolean[size];
    long decisive = isAnd ? 0 : 1;
    for (Expression term : terms) {
      Vector value = VectorEvaluator.evaluate(term, inputs, size);
      long[] values = value.longs();
      for (int i = 0; i < size; i++) {
        if (out[i] == decisive && !unknown[i]) {
          continue;
        }
        if (value.isNull(i)) {
          unknown[i] = true;
        } else if (values[i] == decisive) {
          out[i] = decisive;
          unknown[i] = false;
        }
      }
    }
    boolean anyUnknown = false;
    for (int i = 0; i < size; i++) {
      if (unknown[i]) {
        // A decisive value settles the row whatever else is unknown.
        if (out[i] == decisive) {
          unknown[i] = false;
        } else {
          anyUnknown = true;
        }
      }
    }
    return Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, anyUnknown ? unknown : null);
  }

  private static Vector not(Vector value) {
    int size = value.size();
    long[] in = value.longs();
    long[] out = new long[size];
    for (int i = 0; i < size; i++) {
      out[i] = 1 - in[i];
    }
    return Vector.ofLongs(PrimitiveType.BOOLEAN, size, out, value.nulls());
  }
}
