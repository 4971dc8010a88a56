package io.shelfmark.sql;

import static io.shelfmark.sql.TestingTables.planner;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.Cast;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Literals take the type of what they are compared with when that is exact; otherwise both sides
 * widen, so no comparison changes meaning.
 */
class TestSqlPlannerImplicitCasts {
  private static final ColumnRef INT_COL = new ColumnRef("int_col", PrimitiveType.INT);
  private static final ColumnRef LONG_COL = new ColumnRef("long_col", PrimitiveType.LONG);

  private static Expression filter(String where) {
    return planner().plan("SELECT COUNT(*) FROM test.types WHERE " + where).filter().orElseThrow();
  }

  private static Comparison equal(Expression left, Expression right) {
    return new Comparison(ComparisonOperator.EQUAL, left, right);
  }

  @Test
  void stringLiteralComparedWithBigintIsParsed() {
    // The benchmark's Q3/Q4 spelling.
    assertThat(filter("long_col = '184833768'"))
        .isEqualTo(equal(LONG_COL, Literal.ofLong(184833768L)));
    assertThat(filter("long_col = ' 184833768 '"))
        .isEqualTo(equal(LONG_COL, Literal.ofLong(184833768L)));
    assertThat(filter("'184833768' = long_col"))
        .isEqualTo(equal(LONG_COL, Literal.ofLong(184833768L)));
    assertThat(filter("long_col = '-5'")).isEqualTo(equal(LONG_COL, Literal.ofLong(-5L)));
  }

  @Test
  void integerLiteralsTakeTheColumnTypeWhenTheyFit() {
    assertThat(filter("long_col = 5")).isEqualTo(equal(LONG_COL, Literal.ofLong(5)));
    assertThat(filter("int_col = 5")).isEqualTo(equal(INT_COL, Literal.ofInt(5)));
    assertThat(filter("int_col = 5.0")).isEqualTo(equal(INT_COL, Literal.ofInt(5)));
    assertThat(filter("double_col = 5"))
        .isEqualTo(equal(new ColumnRef("double_col", PrimitiveType.DOUBLE), Literal.ofDouble(5.0)));
    assertThat(filter("float_col = 0.1"))
        .isEqualTo(
            equal(
                new ColumnRef("float_col", PrimitiveType.FLOAT),
                new Literal(0.1f, PrimitiveType.FLOAT)));
    assertThat(filter("decimal_col = 1"))
        .isEqualTo(
            equal(
                new ColumnRef("decimal_col", new DecimalType(10, 2)),
                new Literal(new BigDecimal("1.00"), new DecimalType(10, 2))));
  }

  @Test
  void literalsThatDoNotFitWidenTheColumnInstead() {
    // INT column vs a LONG value: comparing in INT would overflow, so the column widens.
    assertThat(filter("int_col < 3000000000"))
        .isEqualTo(
            new Comparison(
                ComparisonOperator.LESS_THAN,
                new Cast(INT_COL, PrimitiveType.LONG),
                Literal.ofLong(3000000000L)));
    // A fraction against an integer column: exact DECIMAL comparison, never rounded to 1 or 2.
    DecimalType decimal = new DecimalType(11, 1);
    assertThat(filter("int_col = 1.5"))
        .isEqualTo(equal(new Cast(INT_COL, decimal), new Literal(new BigDecimal("1.5"), decimal)));
    assertThat(filter("decimal_col > 1.005").toString())
        .isEqualTo("(CAST(decimal_col AS DECIMAL(11,3)) > 1.005)");
  }

  @Test
  void columnsOfDifferentTypesWidenToTheCommonType() {
    assertThat(filter("int_col = long_col"))
        .isEqualTo(equal(new Cast(INT_COL, PrimitiveType.LONG), LONG_COL));
    assertThat(filter("float_col < long_col").toString())
        .isEqualTo("(CAST(float_col AS DOUBLE) < CAST(long_col AS DOUBLE))");
    assertThat(filter("date_col < ts_col").toString())
        .isEqualTo("(CAST(date_col AS TIMESTAMP) < ts_col)");
  }

  @Test
  void temporalLiterals() {
    assertThat(filter("date_col = '2025-08-03'"))
        .isEqualTo(
            equal(
                new ColumnRef("date_col", PrimitiveType.DATE),
                new Literal(20303, PrimitiveType.DATE)));
    // Microseconds since the epoch: 2025-08-03T14:00Z is 1754229600 s.
    assertThat(filter("ts_col >= '2025-08-03 14:00:00'"))
        .isEqualTo(
            new Comparison(
                ComparisonOperator.GREATER_THAN_OR_EQUAL,
                new ColumnRef("ts_col", PrimitiveType.TIMESTAMP),
                new Literal(1754229600_000000L, PrimitiveType.TIMESTAMP)));
    assertThat(filter("ts_col = '2025-08-03T14:00:00.123456'").toString())
        .isEqualTo("(ts_col = TIMESTAMP '2025-08-03 14:00:00.123456')");
    assertThat(filter("tstz_col = '2025-08-03 16:00:00+02:00'").toString())
        .isEqualTo("(tstz_col = TIMESTAMP WITH TIME ZONE '2025-08-03 14:00:00+00:00')");
    assertThat(filter("ts_col > DATE '2025-08-03'").toString())
        .isEqualTo("(ts_col > TIMESTAMP '2025-08-03 00:00:00')");
    // A DATE equals a timestamp literal only at midnight; otherwise the column widens.
    assertThat(filter("date_col = TIMESTAMP '2025-08-03 00:00:00'").toString())
        .isEqualTo("(date_col = DATE '2025-08-03')");
    assertThat(filter("date_col < TIMESTAMP '2025-08-03 01:00:00'").toString())
        .isEqualTo("(CAST(date_col AS TIMESTAMP) < TIMESTAMP '2025-08-03 01:00:00')");
  }

  @Test
  void booleanAndStringLiterals() {
    assertThat(filter("bool_col = 'TRUE'").toString()).isEqualTo("(bool_col = TRUE)");
    assertThat(filter("string_col = 'it''s'").toString()).isEqualTo("(string_col = 'it''s')");
  }

  @Test
  void inListItemsAreCastToTheValueType() {
    Expression in = filter("long_col IN (1, '2', NULL)");

    assertThat(in)
        .isEqualTo(
            new InList(
                LONG_COL,
                java.util.List.of(
                    Literal.ofLong(1), Literal.ofLong(2), Literal.nullOf(PrimitiveType.LONG)),
                false));
    assertThat(filter("int_col IN (1, 2.5)").toString())
        .isEqualTo("(CAST(int_col AS DECIMAL(11,1)) IN (1.0, 2.5))");
  }

  @Test
  void betweenBoundsAreCastToTheValueType() {
    assertThat(filter("long_col BETWEEN '1' AND 10"))
        .isEqualTo(new Between(LONG_COL, Literal.ofLong(1), Literal.ofLong(10), false));
    assertThat(filter("int_col BETWEEN 1 AND 5000000000").toString())
        .isEqualTo("(CAST(int_col AS LONG) BETWEEN 1 AND 5000000000)");
  }

  @Test
  void mapValuesAndAggregatesCastLiteralsToo() {
    assertThat(filter("metrics_map['requests'] = '42'").toString())
        .isEqualTo("(metrics_map['requests'] = 42)");
    assertThat(
            planner()
                .plan("SELECT COUNT(*) FROM test.types HAVING SUM(long_col) > '100'")
                .having()
                .orElseThrow())
        .isEqualTo(
            new Comparison(
                ComparisonOperator.GREATER_THAN,
                new io.shelfmark.sql.expression.AggregateRef(1, PrimitiveType.LONG),
                Literal.ofLong(100)));
  }
}
