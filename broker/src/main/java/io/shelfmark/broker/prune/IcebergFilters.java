package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Like;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.Or;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.expressions.Expressions;

/**
 * Translates a plan's filter into an Iceberg expression that every row passing the filter also
 * satisfies (an implied, possibly weaker condition), so Iceberg's inclusive partition projection
 * can rule partitions out. Iceberg's row semantics may accept more rows than SQL's (NULLs, for
 * example), never fewer, for the predicates translated here; anything else becomes {@code
 * alwaysTrue()}.
 *
 * <p>Translated: comparisons, BETWEEN, IN and NOT IN, IS [NOT] NULL of a column with literals of
 * its own type, and LIKE with a literal prefix (as {@code startsWith}); a comparison or IN through
 * the binder's INT-to-LONG cast with literals that fit an INT. Not translated: FLOAT and DOUBLE
 * columns (Iceberg orders -0.0 before 0.0, SQL says they are equal), map keys, expressions.
 * Predicates that are never TRUE ({@code x = NULL}, {@code x NOT IN (1, NULL)}) become {@code
 * alwaysFalse()}.
 */
final class IcebergFilters {
  private IcebergFilters() {}

  static org.apache.iceberg.expressions.Expression toIceberg(Expression filter) {
    requireNonNull(filter, "filter is null");
    return switch (filter) {
      case And and -> combine(and.terms(), true);
      case Or or -> combine(or.terms(), false);
      case Literal literal ->
          !literal.isNull() && Boolean.TRUE.equals(literal.value())
              ? Expressions.alwaysTrue()
              : Expressions.alwaysFalse();
      case Comparison comparison -> comparison(comparison);
      case Between between -> between(between);
      case InList in -> in(in);
      case IsNull isNull ->
          column(isNull.value())
              .<org.apache.iceberg.expressions.Expression>map(
                  name -> isNull.negated() ? Expressions.notNull(name) : Expressions.isNull(name))
              .orElse(Expressions.alwaysTrue());
      case Like like -> like(like);
      default -> Expressions.alwaysTrue();
    };
  }

  /**
   * The terms joined as a balanced tree: Iceberg's evaluators recurse per level, and a chain of
   * 2,000 ORs joined one by one would be 2,000 levels deep (log2 of that when balanced).
   */
  private static org.apache.iceberg.expressions.Expression combine(
      List<Expression> terms, boolean isAnd) {
    List<org.apache.iceberg.expressions.Expression> level = new ArrayList<>(terms.size());
    for (Expression term : terms) {
      level.add(toIceberg(term));
    }
    if (level.isEmpty()) {
      return isAnd ? Expressions.alwaysTrue() : Expressions.alwaysFalse();
    }
    while (level.size() > 1) {
      List<org.apache.iceberg.expressions.Expression> next = new ArrayList<>();
      for (int i = 0; i < level.size(); i += 2) {
        if (i + 1 == level.size()) {
          next.add(level.get(i));
        } else {
          next.add(
              isAnd
                  ? Expressions.and(level.get(i), level.get(i + 1))
                  : Expressions.or(level.get(i), level.get(i + 1)));
        }
      }
      level = next;
    }
    return level.getFirst();
  }

  private static org.apache.iceberg.expressions.Expression comparison(Comparison comparison) {
    if (!(comparison.right() instanceof Literal literal)) {
      return Expressions.alwaysTrue();
    }
    if (literal.isNull()) {
      return Expressions.alwaysFalse();
    }
    Optional<String> name = column(comparison.left());
    Optional<Object> value = value(comparison.left(), literal);
    if (name.isEmpty() || value.isEmpty()) {
      return Expressions.alwaysTrue();
    }
    return compare(comparison.operator(), name.get(), value.get());
  }

  private static org.apache.iceberg.expressions.Expression compare(
      ComparisonOperator operator, String name, Object value) {
    return switch (operator) {
      case EQUAL -> Expressions.equal(name, value);
      case NOT_EQUAL -> Expressions.notEqual(name, value);
      case LESS_THAN -> Expressions.lessThan(name, value);
      case LESS_THAN_OR_EQUAL -> Expressions.lessThanOrEqual(name, value);
      case GREATER_THAN -> Expressions.greaterThan(name, value);
      case GREATER_THAN_OR_EQUAL -> Expressions.greaterThanOrEqual(name, value);
    };
  }

  private static org.apache.iceberg.expressions.Expression between(Between between) {
    if (!(between.low() instanceof Literal low) || !(between.high() instanceof Literal high)) {
      return Expressions.alwaysTrue();
    }
    Optional<String> name = column(between.value());
    if (name.isEmpty()) {
      return Expressions.alwaysTrue();
    }
    org.apache.iceberg.expressions.Expression lower =
        bound(
            between,
            low,
            between.negated()
                ? ComparisonOperator.LESS_THAN
                : ComparisonOperator.GREATER_THAN_OR_EQUAL,
            name.get());
    org.apache.iceberg.expressions.Expression upper =
        bound(
            between,
            high,
            between.negated()
                ? ComparisonOperator.GREATER_THAN
                : ComparisonOperator.LESS_THAN_OR_EQUAL,
            name.get());
    return between.negated() ? Expressions.or(lower, upper) : Expressions.and(lower, upper);
  }

  private static org.apache.iceberg.expressions.Expression bound(
      Between between, Literal bound, ComparisonOperator operator, String name) {
    if (bound.isNull()) {
      // x >= NULL is NULL: never TRUE, in either form of BETWEEN.
      return Expressions.alwaysFalse();
    }
    return value(between.value(), bound)
        .<org.apache.iceberg.expressions.Expression>map(value -> compare(operator, name, value))
        .orElse(Expressions.alwaysTrue());
  }

  private static org.apache.iceberg.expressions.Expression in(InList in) {
    Optional<String> name = column(in.value());
    if (name.isEmpty()) {
      return Expressions.alwaysTrue();
    }
    if (in.negated() && in.hasNullItem()) {
      return Expressions.alwaysFalse();
    }
    List<Object> values = new ArrayList<>();
    for (Literal item : in.items()) {
      if (item.isNull()) {
        continue;
      }
      Optional<Object> value = value(in.value(), item);
      if (value.isEmpty()) {
        return Expressions.alwaysTrue();
      }
      values.add(value.get());
    }
    if (values.isEmpty()) {
      return Expressions.alwaysFalse();
    }
    return in.negated()
        ? Expressions.notIn(name.get(), values.toArray())
        : Expressions.in(name.get(), values.toArray());
  }

  private static org.apache.iceberg.expressions.Expression like(Like like) {
    Optional<String> name = column(like.value());
    if (name.isEmpty() || like.negated()) {
      return Expressions.alwaysTrue();
    }
    Optional<String> exact = like.pattern().exactValue();
    if (exact.isPresent()) {
      return Expressions.equal(name.get(), exact.get());
    }
    String prefix = like.pattern().literalPrefix();
    return prefix.isEmpty() ? Expressions.alwaysTrue() : Expressions.startsWith(name.get(), prefix);
  }

  /** The column an operand reads, directly or through the INT-to-LONG cast; not floating point. */
  private static Optional<String> column(Expression operand) {
    Expression inner = operand;
    if (operand instanceof Cast cast) {
      if (!isIntToLong(cast)) {
        return Optional.empty();
      }
      inner = cast.operand();
    }
    if (inner instanceof ColumnRef column
        && !(column.type() instanceof PrimitiveType primitive && primitive.isFloatingPoint())) {
      return Optional.of(column.name());
    }
    return Optional.empty();
  }

  /**
   * The literal as a value of the column's own type: as is, or for the INT-to-LONG cast the INT of
   * the same value (empty when it does not fit).
   */
  private static Optional<Object> value(Expression operand, Literal literal) {
    if (literal.isNull()) {
      return Optional.empty();
    }
    if (operand instanceof Cast cast) {
      // Any other cast (INT or BIGINT widened to DECIMAL for `resolution > 15000.5`) carries a
      // literal that is not a BIGINT; it is not translated, so the partition is read.
      if (!isIntToLong(cast) || !(literal.value() instanceof Long value)) {
        return Optional.empty();
      }
      return value == value.intValue() ? Optional.of((Object) value.intValue()) : Optional.empty();
    }
    return Optional.of(literal.value());
  }

  private static boolean isIntToLong(Cast cast) {
    return cast.operand().type() == PrimitiveType.INT && cast.type() == PrimitiveType.LONG;
  }
}
