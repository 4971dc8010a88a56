package io.shelfmark.exchange.vector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.exchange.error.QueryExecutionException;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestVectorEvaluator {
  private static final BoundTable TABLE =
      new BoundTable(
          TableName.of("t"),
          List.of(
              new Column("a", PrimitiveType.LONG, true),
              new Column("b", PrimitiveType.LONG, true),
              new Column("i", PrimitiveType.INT, true),
              new Column("s", PrimitiveType.STRING, true),
              new Column("d", PrimitiveType.DOUBLE, true)));
  private static final SqlPlanner PLANNER = new SqlPlanner(TableSchemaProvider.of(TABLE));

  // Rows: a = 1, NULL, 3, 4 ; b = NULL, NULL, 3, 0 ; s = 'x', NULL, 'tk_cache', '' ;
  // i = 2147483647, 1, NULL, -5 ; d = NaN, -0.0, 1.5, NULL
  private static final Map<String, Vector> COLUMNS =
      Map.of(
          "a", Vectors.ofBoxed(PrimitiveType.LONG, Arrays.asList(1L, null, 3L, 4L)),
          "b", Vectors.ofBoxed(PrimitiveType.LONG, Arrays.asList(null, null, 3L, 0L)),
          "i", Vectors.ofBoxed(PrimitiveType.INT, Arrays.asList(Integer.MAX_VALUE, 1, null, -5)),
          "s", Vectors.ofBoxed(PrimitiveType.STRING, Arrays.asList("x", null, "tk_cache", "")),
          "d", Vectors.ofBoxed(PrimitiveType.DOUBLE, Arrays.asList(Double.NaN, -0.0, 1.5, null)));

  /** The WHERE condition of {@code SELECT a FROM t WHERE <condition> LIMIT 1} per row. */
  private static List<Boolean> where(String condition) {
    QueryPlan plan = PLANNER.plan("SELECT a FROM t WHERE " + condition + " LIMIT 1");
    return values(plan.filter().orElseThrow());
  }

  private static List<Boolean> values(Expression expression) {
    Vector vector =
        VectorEvaluator.evaluate(expression, leaf -> COLUMNS.get(((ColumnRef) leaf).name()), 4);
    List<Boolean> out = new ArrayList<>();
    for (int row = 0; row < 4; row++) {
      out.add((Boolean) vector.boxed(row));
    }
    return out;
  }

  @Test
  void threeValuedLogic() {
    assertThat(where("a = 1 OR b = 3")).containsExactly(true, null, true, false);
    assertThat(where("a = 1 AND b = 3")).containsExactly(null, null, false, false);
    assertThat(where("NOT (a = 1)")).containsExactly(false, null, true, true);
    assertThat(where("a IS NULL OR b IS NOT NULL")).containsExactly(false, true, true, true);
    assertThat(where("a BETWEEN 2 AND 4")).containsExactly(false, null, true, true);
    assertThat(where("a NOT BETWEEN 2 AND 4")).containsExactly(true, null, false, false);
  }

  @Test
  void inListsWithNulls() {
    assertThat(where("a IN (1, 4)")).containsExactly(true, null, false, true);
    assertThat(where("a IN (1, NULL)")).containsExactly(true, null, null, null);
    assertThat(where("a NOT IN (1, NULL)")).containsExactly(false, null, null, null);
    assertThat(where("a NOT IN (1, 3)")).containsExactly(false, null, false, true);
  }

  @Test
  void inListsOfEveryTypeMatchWhatEqualityDecides() {
    // Unsorted items, duplicates, and the floating corner case equality defines: -0.0 = 0.0.
    assertThat(where("a IN (4, 9, 1, 4)")).containsExactly(true, null, false, true);
    assertThat(where("i IN (-5, 2147483647)")).containsExactly(true, false, null, true);
    assertThat(where("s IN ('tk_cache', 'zz', '')")).containsExactly(false, null, true, true);
    assertThat(where("s NOT IN ('x', '')")).containsExactly(false, null, true, false);
    assertThat(where("d IN (1.5, 0.0)")).containsExactly(false, true, true, null);
    assertThat(where("d NOT IN (1.5)")).containsExactly(true, true, false, null);
  }

  @Test
  void longInListsAreTestedPerRowNotPerItem() {
    // 9,999 more items (the planner's default IN-list limit is 10,000): item by item this built
    // one equality vector per item per batch (50,000 took the heap); the sorted items answer the
    // same, including items the rows do not hold.
    StringBuilder strings = new StringBuilder("'x'");
    StringBuilder longs = new StringBuilder("4");
    for (int i = 0; i < 9_999; i++) {
      strings.append(", 'n").append(i).append('\'');
      longs.append(", ").append(1_000 + i);
    }
    assertThat(where("s IN (" + strings + ")")).containsExactly(true, null, false, false);
    assertThat(where("s NOT IN (" + strings + ")")).containsExactly(false, null, true, true);
    assertThat(where("a IN (" + longs + ")")).containsExactly(false, null, false, true);
  }

  @Test
  void stringsLikeAndFloatingOrder() {
    assertThat(where("s LIKE 'tk%'")).containsExactly(false, null, true, false);
    assertThat(where("s NOT LIKE '_'")).containsExactly(false, null, true, true);
    assertThat(where("s < 'y'")).containsExactly(true, null, true, true);
    // NaN is greater than everything and equal to itself; -0.0 equals 0.0.
    assertThat(where("d > 1e300")).containsExactly(true, false, false, null);
    assertThat(where("d = 0.0")).containsExactly(false, true, false, null);
  }

  @Test
  void integerOverflowFailsNamingTheExpression() {
    QueryPlan plan = PLANNER.plan("SELECT i + 1 FROM t LIMIT 1");
    assertThatThrownBy(
            () ->
                VectorEvaluator.evaluate(
                    plan.outputs().get(0).expression(),
                    leaf -> COLUMNS.get(((ColumnRef) leaf).name()),
                    4))
        .isInstanceOf(QueryExecutionException.class)
        .hasMessage(
            "Cannot compute (i + 1): the result overflows INT (cast to a wider type or filter out the extreme values)");
    QueryPlan divide = PLANNER.plan("SELECT a / b FROM t LIMIT 1");
    Vector quotient =
        VectorEvaluator.evaluate(
            divide.outputs().get(0).expression(),
            leaf -> COLUMNS.get(((ColumnRef) leaf).name()),
            4);
    assertThat(quotient.boxed(3)).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(quotient.boxed(0)).isNull();
  }
}
