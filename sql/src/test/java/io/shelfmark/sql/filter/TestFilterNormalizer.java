package io.shelfmark.sql.filter;

import static io.shelfmark.sql.filter.FilterNormalizer.conjuncts;
import static io.shelfmark.sql.filter.FilterNormalizer.normalize;
import static io.shelfmark.sql.filter.ThreeValuedEvaluator.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.sql.expression.And;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.ColumnRef;
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
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * NOT push-down and flattening keep every row's three-valued result: checked against a reference
 * evaluator on explicit truth tables and on random trees over every combination of NULL and
 * non-NULL values.
 */
class TestFilterNormalizer {
  private static final ColumnRef A = new ColumnRef("a", PrimitiveType.INT);
  private static final ColumnRef B = new ColumnRef("b", PrimitiveType.BOOLEAN);
  private static final ColumnRef S = new ColumnRef("s", PrimitiveType.STRING);
  private static final Literal NULL_INT = Literal.nullOf(PrimitiveType.INT);
  private static final Literal NULL_BOOLEAN = Literal.nullOf(PrimitiveType.BOOLEAN);

  /** Every row of a ∈ {NULL, 0, 1, 2} × b ∈ {NULL, FALSE, TRUE} × s ∈ {NULL, 'x', 'xy'}. */
  private static final List<Map<String, Object>> ROWS = rows();

  private static List<Map<String, Object>> rows() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Integer a : Arrays.asList(null, 0, 1, 2)) {
      for (Boolean b : Arrays.asList(null, false, true)) {
        for (String s : Arrays.asList(null, "x", "xy")) {
          Map<String, Object> row = new HashMap<>();
          row.put("a", a);
          row.put("b", b);
          row.put("s", s);
          rows.add(row);
        }
      }
    }
    return rows;
  }

  private static Comparison compare(ComparisonOperator operator, int value) {
    return new Comparison(operator, A, Literal.ofInt(value));
  }

  private static Map<String, Object> rowWithA(Integer a) {
    Map<String, Object> row = new HashMap<>();
    row.put("a", a);
    return row;
  }

  @Test
  void notEqualsIsNotEqualAndKeepsNullsOut() {
    Expression normalized = normalize(new Not(compare(ComparisonOperator.EQUAL, 1)));

    assertThat(normalized).isEqualTo(compare(ComparisonOperator.NOT_EQUAL, 1));
    // Truth table: a NULL a stays NULL (the row is excluded), as NOT (NULL = 1) is NULL.
    assertThat(evaluate(normalized, rowWithA(null))).isNull();
    assertThat(evaluate(normalized, rowWithA(1))).isEqualTo(false);
    assertThat(evaluate(normalized, rowWithA(2))).isEqualTo(true);
  }

  @Test
  void everyComparisonNegates() {
    for (ComparisonOperator operator : ComparisonOperator.values()) {
      Expression negated = new Not(compare(operator, 1));
      Expression normalized = normalize(negated);
      assertThat(normalized).isEqualTo(compare(operator.negate(), 1));
      assertSameOnEveryRow(negated, normalized);
    }
  }

  @Test
  void notInWithANullItemIsNeverTrue() {
    InList in = new InList(A, List.of(Literal.ofInt(1), NULL_INT), false);
    Expression normalized = normalize(new Not(in));

    assertThat(normalized).isEqualTo(new InList(A, in.items(), true));
    assertThat(evaluate(normalized, rowWithA(1))).isEqualTo(false);
    assertThat(evaluate(normalized, rowWithA(2))).isNull();
    assertThat(evaluate(normalized, rowWithA(null))).isNull();
    assertThat(evaluate(in, rowWithA(2))).isNull();
    assertThat(evaluate(in, rowWithA(1))).isEqualTo(true);
  }

  @Test
  void notBetweenLikeAndIsNullFlipTheirFlag() {
    Between between = new Between(A, Literal.ofInt(1), Literal.ofInt(2), false);
    Like like = new Like(S, LikePattern.compile("x%", null), false);
    IsNull isNull = new IsNull(A, false);

    assertThat(normalize(new Not(between)))
        .isEqualTo(new Between(A, Literal.ofInt(1), Literal.ofInt(2), true));
    assertThat(normalize(new Not(like))).isEqualTo(new Like(S, like.pattern(), true));
    assertThat(normalize(new Not(isNull))).isEqualTo(new IsNull(A, true));
    assertThat(normalize(new Not(new Not(between)))).isEqualTo(between);
    // BETWEEN with a NULL bound is FALSE, not NULL, when the other bound already fails.
    Between nullLow = new Between(A, NULL_INT, Literal.ofInt(1), false);
    assertThat(evaluate(nullLow, rowWithA(2))).isEqualTo(false);
    assertThat(evaluate(normalize(new Not(nullLow)), rowWithA(2))).isEqualTo(true);
    assertThat(evaluate(normalize(new Not(nullLow)), rowWithA(0))).isNull();
  }

  @Test
  void booleanLeavesBecomeComparisons() {
    assertThat(normalize(B))
        .isEqualTo(new Comparison(ComparisonOperator.EQUAL, B, Literal.of(true)));
    assertThat(normalize(new Not(B)))
        .isEqualTo(new Comparison(ComparisonOperator.EQUAL, B, Literal.of(false)));
    assertSameOnEveryRow(new Not(B), normalize(new Not(B)));
  }

  @Test
  void deMorganFlattensAndPushesDown() {
    // NOT (a = 1 OR (a = 2 AND NOT b)) → a <> 1 AND (a <> 2 OR b = TRUE)
    Expression condition =
        new Not(
            Or.of(
                compare(ComparisonOperator.EQUAL, 1),
                And.of(compare(ComparisonOperator.EQUAL, 2), new Not(B))));

    Expression normalized = normalize(condition);

    assertThat(normalized.toString()).isEqualTo("((a <> 1) AND ((a <> 2) OR (b = TRUE)))");
    assertSameOnEveryRow(condition, normalized);
  }

  @Test
  void nestedAndsAndOrsFlattenAndDeduplicate() {
    Expression a1 = compare(ComparisonOperator.EQUAL, 1);
    Expression a2 = compare(ComparisonOperator.GREATER_THAN, 0);
    Expression nested = And.of(a1, And.of(a2, And.of(a1, new IsNull(S, true))));

    assertThat(normalize(nested)).isEqualTo(And.of(a1, a2, new IsNull(S, true)));
    assertThat(normalize(Or.of(a1, Or.of(a2, a1)))).isEqualTo(Or.of(a1, a2));
  }

  @Test
  void booleanLiteralsFold() {
    Expression a1 = compare(ComparisonOperator.EQUAL, 1);

    assertThat(normalize(And.of(a1, Literal.of(true)))).isEqualTo(a1);
    assertThat(normalize(And.of(a1, Literal.of(false)))).isEqualTo(Literal.of(false));
    assertThat(normalize(Or.of(a1, Literal.of(true)))).isEqualTo(Literal.of(true));
    assertThat(normalize(Or.of(a1, Literal.of(false)))).isEqualTo(a1);
    assertThat(normalize(new Not(And.of(a1, Literal.of(true)))))
        .isEqualTo(compare(ComparisonOperator.NOT_EQUAL, 1));
    // NULL AND x is FALSE or NULL depending on x: it cannot fold.
    assertThat(normalize(And.of(a1, NULL_BOOLEAN))).isEqualTo(And.of(a1, NULL_BOOLEAN));
    assertThat(normalize(new Not(NULL_BOOLEAN))).isEqualTo(NULL_BOOLEAN);
  }

  @Test
  void conjunctsOfANormalisedFilter() {
    Expression a1 = compare(ComparisonOperator.EQUAL, 1);
    Expression s = new IsNull(S, false);

    assertThat(conjuncts(normalize(And.of(a1, s)))).containsExactly(a1, s);
    assertThat(conjuncts(normalize(Or.of(a1, s)))).containsExactly(Or.of(a1, s));
    assertThat(conjuncts(normalize(Literal.of(true)))).isEmpty();
    assertThat(conjuncts(Literal.of(false))).containsExactly(Literal.of(false));
  }

  @Test
  void nonBooleanConditionIsAProgrammingError() {
    assertThatThrownBy(() -> normalize(A))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Not a BOOLEAN condition: a");
  }

  @Test
  void randomTreesKeepTheirValueOnEveryRow() {
    Random random = new Random(20250803);
    for (int i = 0; i < 2000; i++) {
      Expression condition = randomCondition(random, 4);
      Expression normalized = normalize(condition);
      assertSameOnEveryRow(condition, normalized);
      assertSameOnEveryRow(new Not(condition), normalize(new Not(condition)));
      assertNormalShape(normalized);
    }
  }

  private static void assertSameOnEveryRow(Expression original, Expression normalized) {
    for (Map<String, Object> row : ROWS) {
      assertThat(evaluate(normalized, row))
          .as("%s → %s on %s", original, normalized, row)
          .isEqualTo(evaluate(original, row));
    }
  }

  private static void assertNormalShape(Expression expression) {
    assertThat(expression).as("no NOT remains").isNotInstanceOf(Not.class);
    if (expression instanceof And and) {
      for (Expression term : and.terms()) {
        assertThat(term).as("flat AND in %s", expression).isNotInstanceOf(And.class);
        assertThat(term).isNotIn(Literal.of(true), Literal.of(false));
      }
    }
    if (expression instanceof Or or) {
      for (Expression term : or.terms()) {
        assertThat(term).as("flat OR in %s", expression).isNotInstanceOf(Or.class);
        assertThat(term).isNotIn(Literal.of(true), Literal.of(false));
      }
    }
    for (Expression child : expression.children()) {
      if (child.type() == PrimitiveType.BOOLEAN) {
        assertNormalShape(child);
      }
    }
  }

  private static Expression randomCondition(Random random, int depth) {
    int choice = random.nextInt(depth <= 0 ? 6 : 9);
    return switch (choice) {
      case 0 -> compare(ComparisonOperator.values()[random.nextInt(6)], random.nextInt(3));
      case 1 -> {
        Literal low = random.nextInt(4) == 0 ? NULL_INT : Literal.ofInt(random.nextInt(3));
        Literal high = random.nextInt(4) == 0 ? NULL_INT : Literal.ofInt(random.nextInt(3));
        yield new Between(A, low, high, random.nextBoolean());
      }
      case 2 -> {
        List<Literal> items = new ArrayList<>();
        for (int i = 0; i <= random.nextInt(3); i++) {
          items.add(random.nextInt(4) == 0 ? NULL_INT : Literal.ofInt(random.nextInt(3)));
        }
        yield new InList(A, items, random.nextBoolean());
      }
      case 3 -> new IsNull(List.of(A, B, S).get(random.nextInt(3)), random.nextBoolean());
      case 4 ->
          new Like(
              S,
              LikePattern.compile(random.nextBoolean() ? "x%" : "_y", null),
              random.nextBoolean());
      case 5 ->
          switch (random.nextInt(4)) {
            case 0 -> Literal.of(true);
            case 1 -> Literal.of(false);
            case 2 -> NULL_BOOLEAN;
            default -> B;
          };
      case 6 -> new Not(randomCondition(random, depth - 1));
      default -> {
        List<Expression> terms = new ArrayList<>();
        for (int i = 0; i < 2 + random.nextInt(2); i++) {
          terms.add(randomCondition(random, depth - 1));
        }
        yield choice == 7 ? new And(terms) : new Or(terms);
      }
    };
  }
}
