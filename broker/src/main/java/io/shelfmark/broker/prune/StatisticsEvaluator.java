package io.shelfmark.broker.prune;

import static io.shelfmark.broker.prune.PruneResult.ALL_MATCH;
import static io.shelfmark.broker.prune.PruneResult.CANNOT_MATCH;
import static io.shelfmark.broker.prune.PruneResult.MIGHT_MATCH;
import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.Value;
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
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.expression.Or;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;

/**
 * Decides from min/max/null-count statistics whether a unit of rows can hold a row passing a
 * (normalised) filter, in SQL's three-valued logic: a row passes only when the filter is TRUE, so a
 * comparison with NULL never passes, {@code x <> 5} skips rows where x is NULL, and {@code IS NULL}
 * needs null counts.
 *
 * <p>Every rule is conservative: it answers CANNOT_MATCH only when no value between the bounds can
 * make the predicate TRUE, and ALL_MATCH only when every value between the bounds makes it TRUE and
 * no value is NULL. Bounds need not be exact (Iceberg truncates string bounds), only bounds: {@code
 * min <= every value <= max}. Anything the rules do not cover (expressions of columns, column
 * against column, DECIMAL and BINARY values, casts that could reorder values, NOT LIKE, a filter
 * not in normal form) is MIGHT_MATCH. Stateless and thread safe.
 */
public final class StatisticsEvaluator {
  private StatisticsEvaluator() {}

  /**
   * Evaluates a BOOLEAN condition (the plan's normalised filter, or one conjunct of it) over the
   * statistics of one unit of rows.
   */
  public static PruneResult evaluate(Expression condition, PruningStatistics statistics) {
    requireNonNull(condition, "condition is null");
    requireNonNull(statistics, "statistics is null");
    if (statistics.rowCount() == 0) {
      // Proof: no row, so no row passes.
      return CANNOT_MATCH;
    }
    return switch (condition) {
      case And and -> and(and, statistics);
      case Or or -> or(or, statistics);
      case Literal literal ->
          // Proof: a constant filter is the same for every row; NULL and FALSE pass none.
          !literal.isNull() && Boolean.TRUE.equals(literal.value()) ? ALL_MATCH : CANNOT_MATCH;
      case Comparison comparison -> comparison(comparison, statistics);
      case Between between -> between(between, statistics);
      case InList in -> in(in, statistics);
      case IsNull isNull -> isNull(isNull, statistics);
      case Like like -> like(like, statistics);
      default -> MIGHT_MATCH;
    };
  }

  private static PruneResult and(And and, PruningStatistics statistics) {
    PruneResult result = ALL_MATCH;
    for (Expression term : and.terms()) {
      result = result.and(evaluate(term, statistics));
      if (result == CANNOT_MATCH) {
        return result;
      }
    }
    return result;
  }

  private static PruneResult or(Or or, PruningStatistics statistics) {
    PruneResult result = CANNOT_MATCH;
    for (Expression term : or.terms()) {
      result = result.or(evaluate(term, statistics));
      if (result == ALL_MATCH) {
        return result;
      }
    }
    return result;
  }

  /**
   * A column's statistics as seen through the operand: the column or map key itself, or a monotone
   * implicit cast of it (bounds map through it).
   */
  private record Bounds(long rows, OptionalLong nulls, Optional<Value> min, Optional<Value> max) {
    boolean allNull() {
      return rows > 0 && nulls.isPresent() && nulls.getAsLong() == rows;
    }

    boolean noNulls() {
      return nulls.isPresent() && nulls.getAsLong() == 0;
    }
  }

  private static Optional<Bounds> bounds(Expression operand, PruningStatistics statistics) {
    if (operand instanceof ColumnRef || operand instanceof MapKeyRef) {
      return statistics.column(operand).map(StatisticsEvaluator::bounds);
    }
    if (operand instanceof Cast cast
        && (cast.operand() instanceof ColumnRef || cast.operand() instanceof MapKeyRef)) {
      Optional<UnaryOperator<Value>> mapping =
          PruningValues.cast(cast.operand().type(), cast.type());
      Optional<ColumnStatistics> column = statistics.column(cast.operand());
      if (mapping.isEmpty() || column.isEmpty()) {
        return Optional.empty();
      }
      Bounds original = bounds(column.get());
      return Optional.of(
          new Bounds(
              original.rows(),
              original.nulls(),
              original.min().map(mapping.get()),
              original.max().map(mapping.get())));
    }
    return Optional.empty();
  }

  private static Bounds bounds(ColumnStatistics statistics) {
    return new Bounds(
        statistics.rowCount(), statistics.nullCount(), statistics.min(), statistics.max());
  }

  private static PruneResult comparison(Comparison comparison, PruningStatistics statistics) {
    Expression column = comparison.left();
    Expression value = comparison.right();
    ComparisonOperator operator = comparison.operator();
    if (column instanceof Literal && !(value instanceof Literal)) {
      column = comparison.right();
      value = comparison.left();
      operator = flip(operator);
    }
    if (!(value instanceof Literal literal)) {
      return MIGHT_MATCH;
    }
    if (literal.isNull()) {
      // Proof: a comparison with NULL is NULL for every row.
      return CANNOT_MATCH;
    }
    Optional<Bounds> bounds = bounds(column, statistics);
    if (bounds.isEmpty()) {
      return MIGHT_MATCH;
    }
    if (bounds.get().allNull()) {
      // Proof: every row's operand is NULL, so the comparison is NULL.
      return CANNOT_MATCH;
    }
    Optional<Value> target = PruningValues.of(literal);
    return target.isEmpty() ? MIGHT_MATCH : compare(operator, bounds.get(), target.get());
  }

  /**
   * {@code x op v} over x in [min, max] with some nulls. Proofs, for each operator (a missing bound
   * leaves its rules unused):
   *
   * <pre>
   *   =   CANNOT if v < min or v > max (no value equals v)      ALL if min = max = v, no nulls
   *   <>  CANNOT if min = max = v (every non-null value is v)   ALL if v < min or v > max, no nulls
   *   <   CANNOT if min >= v                                     ALL if max < v, no nulls
   *   <=  CANNOT if min > v                                      ALL if max <= v, no nulls
   *   >   CANNOT if max <= v                                     ALL if min > v, no nulls
   *   >=  CANNOT if max < v                                      ALL if min >= v, no nulls
   * </pre>
   */
  private static PruneResult compare(ComparisonOperator operator, Bounds bounds, Value value) {
    Optional<Value> min = bounds.min();
    Optional<Value> max = bounds.max();
    if ((min.isPresent() && min.get().type() != value.type())
        || (max.isPresent() && max.get().type() != value.type())) {
      return MIGHT_MATCH;
    }
    // Comparisons of the bounds with v; 0 stands in for an unknown bound where no rule may use it.
    boolean hasMin = min.isPresent();
    boolean hasMax = max.isPresent();
    int lower = hasMin ? min.get().compareTo(value) : 0;
    int upper = hasMax ? max.get().compareTo(value) : 0;
    boolean cannot =
        switch (operator) {
          case EQUAL -> (hasMin && lower > 0) || (hasMax && upper < 0);
          case NOT_EQUAL -> hasMin && hasMax && lower == 0 && upper == 0;
          case LESS_THAN -> hasMin && lower >= 0;
          case LESS_THAN_OR_EQUAL -> hasMin && lower > 0;
          case GREATER_THAN -> hasMax && upper <= 0;
          case GREATER_THAN_OR_EQUAL -> hasMax && upper < 0;
        };
    if (cannot) {
      return CANNOT_MATCH;
    }
    if (!bounds.noNulls() || !hasMin || !hasMax) {
      return MIGHT_MATCH;
    }
    boolean all =
        switch (operator) {
          case EQUAL -> lower == 0 && upper == 0;
          case NOT_EQUAL -> lower > 0 || upper < 0;
          case LESS_THAN -> upper < 0;
          case LESS_THAN_OR_EQUAL -> upper <= 0;
          case GREATER_THAN -> lower > 0;
          case GREATER_THAN_OR_EQUAL -> lower >= 0;
        };
    return all ? ALL_MATCH : MIGHT_MATCH;
  }

  private static PruneResult between(Between between, PruningStatistics statistics) {
    if (!(between.low() instanceof Literal low) || !(between.high() instanceof Literal high)) {
      return MIGHT_MATCH;
    }
    Optional<Bounds> bounds = bounds(between.value(), statistics);
    if (bounds.isPresent() && bounds.get().allNull()) {
      return CANNOT_MATCH;
    }
    if (!between.negated()) {
      // x >= low AND x <= high: NULL or FALSE whenever a bound is NULL.
      if (low.isNull() || high.isNull()) {
        return CANNOT_MATCH;
      }
      return side(ComparisonOperator.GREATER_THAN_OR_EQUAL, bounds, low)
          .and(side(ComparisonOperator.LESS_THAN_OR_EQUAL, bounds, high));
    }
    // x < low OR x > high: a branch with a NULL bound is never TRUE.
    PruneResult below =
        low.isNull() ? CANNOT_MATCH : side(ComparisonOperator.LESS_THAN, bounds, low);
    PruneResult above =
        high.isNull() ? CANNOT_MATCH : side(ComparisonOperator.GREATER_THAN, bounds, high);
    return below.or(above);
  }

  private static PruneResult side(
      ComparisonOperator operator, Optional<Bounds> bounds, Literal literal) {
    Optional<Value> value = PruningValues.of(literal);
    if (bounds.isEmpty() || value.isEmpty()) {
      return MIGHT_MATCH;
    }
    return compare(operator, bounds.get(), value.get());
  }

  private static PruneResult in(InList in, PruningStatistics statistics) {
    Optional<Bounds> bounds = bounds(in.value(), statistics);
    if (bounds.isPresent() && bounds.get().allNull()) {
      return CANNOT_MATCH;
    }
    if (in.negated()) {
      // x NOT IN (a, NULL) is never TRUE; otherwise x <> a AND x <> b ...
      if (in.hasNullItem()) {
        return CANNOT_MATCH;
      }
      PruneResult result = ALL_MATCH;
      for (Literal item : in.items()) {
        result = result.and(side(ComparisonOperator.NOT_EQUAL, bounds, item));
      }
      return result;
    }
    // x = a OR x = b ...; a NULL item is never TRUE.
    PruneResult result = CANNOT_MATCH;
    for (Literal item : in.items()) {
      if (!item.isNull()) {
        result = result.or(side(ComparisonOperator.EQUAL, bounds, item));
      }
    }
    return result;
  }

  private static PruneResult isNull(IsNull isNull, PruningStatistics statistics) {
    Optional<Bounds> bounds = bounds(isNull.value(), statistics);
    if (bounds.isEmpty() || bounds.get().nulls().isEmpty()) {
      return MIGHT_MATCH;
    }
    long nulls = bounds.get().nulls().getAsLong();
    long rows = bounds.get().rows();
    // Proof: IS NULL holds for exactly the null count's rows, IS NOT NULL for the others.
    long passing = isNull.negated() ? rows - nulls : nulls;
    if (passing == 0) {
      return CANNOT_MATCH;
    }
    return passing == rows ? ALL_MATCH : MIGHT_MATCH;
  }

  private static PruneResult like(Like like, PruningStatistics statistics) {
    Optional<Bounds> bounds = bounds(like.value(), statistics);
    if (bounds.isEmpty()) {
      return MIGHT_MATCH;
    }
    if (bounds.get().allNull()) {
      return CANNOT_MATCH;
    }
    if (like.negated()) {
      return MIGHT_MATCH;
    }
    Optional<String> exact = like.pattern().exactValue();
    if (exact.isPresent()) {
      return compare(ComparisonOperator.EQUAL, bounds.get(), Value.of(exact.get()));
    }
    String prefix = like.pattern().literalPrefix();
    if (prefix.isEmpty()) {
      return MIGHT_MATCH;
    }
    // Proof: every match starts with the prefix, so lies in [prefix, successor(prefix)).
    if (compare(ComparisonOperator.GREATER_THAN_OR_EQUAL, bounds.get(), Value.of(prefix))
        == CANNOT_MATCH) {
      return CANNOT_MATCH;
    }
    Optional<String> successor = successor(prefix);
    if (successor.isPresent()
        && compare(ComparisonOperator.LESS_THAN, bounds.get(), Value.of(successor.get()))
            == CANNOT_MATCH) {
      return CANNOT_MATCH;
    }
    return MIGHT_MATCH;
  }

  /**
   * The smallest string greater than every string starting with {@code prefix}, in code-point
   * order: the prefix with its last code point incremented (skipping the surrogate range); empty
   * when the last code point is already the largest.
   */
  static Optional<String> successor(String prefix) {
    int last = prefix.codePointBefore(prefix.length());
    if (last == Character.MAX_CODE_POINT) {
      return Optional.empty();
    }
    int next = last + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : last + 1;
    return Optional.of(
        prefix.substring(0, prefix.length() - Character.charCount(last))
            + Character.toString(next));
  }

  private static ComparisonOperator flip(ComparisonOperator operator) {
    return switch (operator) {
      case EQUAL, NOT_EQUAL -> operator;
      case LESS_THAN -> ComparisonOperator.GREATER_THAN;
      case LESS_THAN_OR_EQUAL -> ComparisonOperator.GREATER_THAN_OR_EQUAL;
      case GREATER_THAN -> ComparisonOperator.LESS_THAN;
      case GREATER_THAN_OR_EQUAL -> ComparisonOperator.LESS_THAN_OR_EQUAL;
    };
  }
}
