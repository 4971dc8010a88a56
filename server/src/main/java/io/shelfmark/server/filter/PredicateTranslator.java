package io.shelfmark.server.filter;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.predicate.Bound;
import io.shelfmark.segment.predicate.Eq;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Translates a normalised SQL filter term into the segment's {@link Predicate} model, when every
 * leaf is a plain {@code column op literal} on a column the segment may answer for: {@code =},
 * {@code <>}, ranges, {@code BETWEEN}, {@code IN}/{@code NOT IN}, {@code IS [NOT] NULL}, a LIKE
 * without wildcards (equality) or a literal prefix then {@code %} (a range of the string order),
 * under AND/OR. Anything else (expressions such as {@code a + 1 > 3}, casts, other LIKE patterns,
 * NULL literals, columns the segment lacks or may not use) makes the whole term untranslatable; the
 * executor then evaluates it on values read from Parquet.
 *
 * <p>Each translation is exact in three-valued logic: {@code x <> v} becomes {@code NOT (x = v)},
 * which the segment defines as true only where x is not null, as SQL does. {@code x IN (a, NULL)}
 * keeps its non-null items (the NULL item can only turn FALSE into UNKNOWN, and neither passes a
 * filter); {@code x NOT IN (..., NULL)} is never TRUE, so it matches no doc. Stateless.
 */
public final class PredicateTranslator {
  /** Which segment column, if any, answers for a table column or map key. */
  @FunctionalInterface
  public interface SegmentColumns {
    /** The segment column (name and value type) for {@code leaf}, if the segment may use it. */
    Optional<SegmentColumn> find(Expression leaf);
  }

  /** A column as a segment knows it. */
  public record SegmentColumn(String name, ValueType type) {
    public SegmentColumn {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
    }
  }

  private final SegmentColumns columns;

  public PredicateTranslator(SegmentColumns columns) {
    this.columns = requireNonNull(columns, "columns is null");
  }

  /** The segment predicate equivalent to {@code term}, or empty when there is none. */
  public Optional<Predicate> translate(Expression term) {
    return switch (term) {
      case And and -> all(and.terms(), true);
      case Or or -> all(or.terms(), false);
      case Comparison comparison -> comparison(comparison);
      case Between between -> between(between);
      case InList in -> in(in);
      case IsNull isNull ->
          column(isNull.value()).map(c -> negate(Predicate.isNull(c.name()), isNull.negated()));
      case Like like -> like(like);
      default -> Optional.empty();
    };
  }

  private Optional<Predicate> all(List<Expression> terms, boolean and) {
    List<Predicate> operands = new ArrayList<>(terms.size());
    for (Expression term : terms) {
      Optional<Predicate> operand = translate(term);
      if (operand.isEmpty()) {
        return Optional.empty();
      }
      operands.add(operand.get());
    }
    return Optional.of(
        and
            ? new io.shelfmark.segment.predicate.And(operands)
            : new io.shelfmark.segment.predicate.Or(operands));
  }

  private Optional<Predicate> comparison(Comparison comparison) {
    Expression left = comparison.left();
    Expression right = comparison.right();
    ComparisonOperator operator = comparison.operator();
    if (left instanceof Literal && !(right instanceof Literal)) {
      Expression swap = left;
      left = right;
      right = swap;
      operator = operator.flip();
    }
    if (!(right instanceof Literal literal)) {
      return Optional.empty();
    }
    Optional<SegmentColumn> column = column(left);
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Optional<Value> value = value(literal, column.get().type());
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String name = column.get().name();
    Value v = value.get();
    Predicate predicate =
        switch (operator) {
          case EQUAL -> new Eq(name, v);
          case NOT_EQUAL -> new Not(new Eq(name, v));
          case LESS_THAN -> Range.lessThan(name, v);
          case LESS_THAN_OR_EQUAL -> Range.atMost(name, v);
          case GREATER_THAN -> Range.greaterThan(name, v);
          case GREATER_THAN_OR_EQUAL -> Range.atLeast(name, v);
        };
    return Optional.of(predicate);
  }

  private Optional<Predicate> between(Between between) {
    if (!(between.low() instanceof Literal low) || !(between.high() instanceof Literal high)) {
      return Optional.empty();
    }
    Optional<SegmentColumn> column = column(between.value());
    if (column.isEmpty()) {
      return Optional.empty();
    }
    Optional<Value> lower = value(low, column.get().type());
    Optional<Value> upper = value(high, column.get().type());
    if (lower.isEmpty() || upper.isEmpty()) {
      return Optional.empty();
    }
    Range range =
        new Range(
            column.get().name(),
            Optional.of(Bound.inclusive(lower.get())),
            Optional.of(Bound.inclusive(upper.get())));
    return Optional.of(negate(range, between.negated()));
  }

  /**
   * {@code x [NOT] IN (...)}. The values come sorted from {@link InValues}, once per list for all
   * of a query's files. A list whose items are all NULL ({@code x IN (NULL)}), and any {@code NOT
   * IN} list holding a NULL ({@code x NOT IN (1, NULL)} is {@code x <> 1 AND x <> NULL}: FALSE or
   * UNKNOWN, never TRUE), passes no row: {@link Predicate#none}. Such a term appears only where the
   * normalised filter put it, below AND/OR and never below a NOT, so matching nothing is exact.
   */
  private Optional<Predicate> in(InList in) {
    Optional<SegmentColumn> column = column(in.value());
    if (column.isEmpty()) {
      return Optional.empty();
    }
    String name = column.get().name();
    if (in.negated() && in.hasNullItem()) {
      return Optional.of(Predicate.none(name));
    }
    Optional<List<Value>> values = InValues.of(in, column.get().type());
    if (values.isEmpty()) {
      return Optional.empty();
    }
    if (values.get().isEmpty()) {
      return Optional.of(Predicate.none(name));
    }
    return Optional.of(negate(new In(name, values.get()), in.negated()));
  }

  private Optional<Predicate> like(Like like) {
    Optional<SegmentColumn> column = column(like.value());
    if (column.isEmpty() || column.get().type() != ValueType.STRING) {
      return Optional.empty();
    }
    Optional<String> exact = like.pattern().exactValue();
    if (exact.isPresent()) {
      return Optional.of(
          negate(new Eq(column.get().name(), Value.of(exact.get())), like.negated()));
    }
    return prefixOnly(like)
        .map(prefix -> negate(prefixRange(column.get().name(), prefix), like.negated()));
  }

  /**
   * The prefix of a pattern that is a literal prefix followed only by {@code %} ({@code 'tk_c%'}
   * has a {@code _}: not one), without an escape character (kept simple: such patterns stay
   * residual). Empty prefixes are left residual too.
   */
  private static Optional<String> prefixOnly(Like like) {
    if (like.pattern().escape().isPresent()) {
      return Optional.empty();
    }
    String pattern = like.pattern().pattern();
    int end = pattern.length();
    while (end > 0 && pattern.charAt(end - 1) == '%') {
      end--;
    }
    String prefix = pattern.substring(0, end);
    if (end == pattern.length()
        || prefix.isEmpty()
        || prefix.indexOf('%') >= 0
        || prefix.indexOf('_') >= 0) {
      return Optional.empty();
    }
    return Optional.of(prefix);
  }

  /**
   * {@code LIKE 'p%'} as a range of the segment's string order (unsigned UTF-8 bytes, the order of
   * code points): the values starting with {@code p = q + c} are exactly those from {@code p}
   * (inclusive) to {@code q + (c + 1)} (exclusive). Proof: a value with prefix {@code q} whose next
   * code point is below {@code c} sorts before {@code p}, above {@code c} at or after {@code q + (c
   * + 1)}; a value differing within {@code q} sorts the same against both bounds. When {@code c} is
   * the last code point (U+10FFFF) every value from {@code p} on with prefix {@code q} starts with
   * {@code p}, so the bound is {@code q}'s own, and none when {@code q} is empty.
   */
  static Range prefixRange(String column, String prefix) {
    Optional<String> upper = successor(prefix);
    return new Range(
        column,
        Optional.of(Bound.inclusive(Value.of(prefix))),
        upper.map(u -> Bound.exclusive(Value.of(u))));
  }

  /** The least string above every string starting with {@code prefix}, if any. */
  private static Optional<String> successor(String prefix) {
    String rest = prefix;
    while (!rest.isEmpty()) {
      int last = rest.codePointBefore(rest.length());
      String head = rest.substring(0, rest.length() - Character.charCount(last));
      if (last < Character.MAX_CODE_POINT) {
        int next = last + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : last + 1;
        return Optional.of(head + Character.toString(next));
      }
      rest = head;
    }
    return Optional.empty();
  }

  private Optional<SegmentColumn> column(Expression leaf) {
    if (leaf instanceof ColumnRef || leaf instanceof MapKeyRef) {
      return columns.find(leaf);
    }
    return Optional.empty();
  }

  private static Predicate negate(Predicate predicate, boolean negated) {
    return negated ? new Not(predicate) : predicate;
  }

  /** The segment value of a non-null literal, when its representation matches the column's. */
  static Optional<Value> value(Literal literal, ValueType type) {
    Object value = literal.value();
    if (value == null) {
      return Optional.empty();
    }
    return switch (type) {
      case LONG ->
          switch (value) {
            case Boolean b -> Optional.of(Value.of(b ? 1L : 0L));
            case Integer i -> Optional.of(Value.of((long) i));
            case Long l -> Optional.of(Value.of((long) l));
            default -> Optional.empty();
          };
      case DOUBLE ->
          switch (value) {
            case Float f -> Optional.of(Value.of((double) f));
            case Double d -> Optional.of(Value.of((double) d));
            default -> Optional.empty();
          };
      case STRING -> value instanceof String s ? Optional.of(Value.of(s)) : Optional.empty();
    };
  }
}
