package io.shelfmark.sql.filter;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Like;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.Not;
import io.shelfmark.sql.expression.Or;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Rewrites a BOOLEAN expression into the shape index evaluation wants, without changing its value
 * for any row in SQL's three-valued logic (TRUE, FALSE, NULL):
 *
 * <ul>
 *   <li>NOT is pushed down to the leaves and disappears: De Morgan for AND/OR (exact in Kleene
 *       logic); {@code NOT (a = 1)} becomes {@code a <> 1} and so on (both NULL when {@code a} is
 *       NULL, so rows with a NULL {@code a} stay excluded); NOT flips the {@code negated} flag of
 *       BETWEEN, IN, LIKE and IS NULL (each defined as NOT of its positive form); {@code NOT b} for
 *       a BOOLEAN leaf becomes {@code b = FALSE} and a bare leaf {@code b} becomes {@code b =
 *       TRUE}.
 *   <li>AND/OR are flattened ({@code a AND (b AND c)} is one AND of three) and duplicate terms
 *       dropped (idempotence holds in three-valued logic).
 *   <li>Boolean literals fold: a FALSE term makes an AND FALSE and is dropped from an OR; a TRUE
 *       term makes an OR TRUE and is dropped from an AND. A NULL literal is kept (NULL AND x is
 *       FALSE or NULL depending on x).
 * </ul>
 *
 * Stateless; the methods are pure functions.
 */
public final class FilterNormalizer {
  private FilterNormalizer() {}

  /** The normalised form of {@code condition}, a BOOLEAN expression. */
  public static Expression normalize(Expression condition) {
    requireNonNull(condition, "condition is null");
    return push(condition, false);
  }

  /** The terms of a normalised condition that must all be TRUE (none for a TRUE literal). */
  public static List<Expression> conjuncts(Expression normalized) {
    requireNonNull(normalized, "normalized is null");
    if (normalized instanceof And and) {
      return and.terms();
    }
    if (normalized.equals(Literal.of(true))) {
      return List.of();
    }
    return List.of(normalized);
  }

  private static Expression push(Expression expression, boolean negate) {
    return switch (expression) {
      case Not not -> push(not.operand(), !negate);
      case And and -> negate ? or(pushAll(and.terms(), true)) : and(pushAll(and.terms(), false));
      case Or or -> negate ? and(pushAll(or.terms(), true)) : or(pushAll(or.terms(), false));
      case Comparison comparison ->
          negate
              ? new Comparison(
                  comparison.operator().negate(), comparison.left(), comparison.right())
              : comparison;
      case Between between ->
          new Between(between.value(), between.low(), between.high(), between.negated() ^ negate);
      case InList in -> new InList(in.value(), in.items(), in.negated() ^ negate);
      case Like like -> new Like(like.value(), like.pattern(), like.negated() ^ negate);
      case IsNull isNull -> new IsNull(isNull.value(), isNull.negated() ^ negate);
      case Literal literal -> negate ? not(literal) : literal;
      default -> booleanLeaf(expression, negate);
    };
  }

  private static List<Expression> pushAll(List<Expression> terms, boolean negate) {
    List<Expression> pushed = new ArrayList<>(terms.size());
    for (Expression term : terms) {
      pushed.add(push(term, negate));
    }
    return pushed;
  }

  private static Literal not(Literal literal) {
    return literal.isNull() ? literal : Literal.of(!(Boolean) literal.value());
  }

  // A column, map key, group key or aggregate of type BOOLEAN: b is (b = TRUE), NOT b is
  // (b = FALSE); both NULL when b is NULL.
  private static Expression booleanLeaf(Expression leaf, boolean negate) {
    if (leaf.type() != PrimitiveType.BOOLEAN) {
      throw new IllegalArgumentException("Not a BOOLEAN condition: " + leaf);
    }
    return new Comparison(ComparisonOperator.EQUAL, leaf, Literal.of(!negate));
  }

  private static Expression and(List<Expression> terms) {
    Set<Expression> flat = new LinkedHashSet<>();
    for (Expression term : terms) {
      if (term.equals(Literal.of(false))) {
        return term;
      }
      if (term instanceof And and) {
        flat.addAll(and.terms());
      } else if (!term.equals(Literal.of(true))) {
        flat.add(term);
      }
    }
    return combine(flat, true);
  }

  private static Expression or(List<Expression> terms) {
    Set<Expression> flat = new LinkedHashSet<>();
    for (Expression term : terms) {
      if (term.equals(Literal.of(true))) {
        return term;
      }
      if (term instanceof Or or) {
        flat.addAll(or.terms());
      } else if (!term.equals(Literal.of(false))) {
        flat.add(term);
      }
    }
    return combine(flat, false);
  }

  private static Expression combine(Set<Expression> terms, boolean isAnd) {
    if (terms.isEmpty()) {
      return Literal.of(isAnd);
    }
    if (terms.size() == 1) {
      return terms.iterator().next();
    }
    List<Expression> list = List.copyOf(terms);
    return isAnd ? new And(list) : new Or(list);
  }
}
