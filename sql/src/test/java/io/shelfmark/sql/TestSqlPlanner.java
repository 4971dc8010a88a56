package io.shelfmark.sql;

import static io.shelfmark.sql.TestingTables.planner;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortDirection;
import io.shelfmark.sql.plan.SortKey;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Each supported construct plans to the expected structure. */
class TestSqlPlanner {
  private static String filter(String where) {
    QueryPlan plan = planner().plan("SELECT COUNT(*) FROM test.types WHERE " + where);
    return plan.filter().map(Object::toString).orElse("<none>");
  }

  private static SqlType outputType(String expression) {
    return planner()
        .plan("SELECT " + expression + " FROM test.types LIMIT 1")
        .outputs()
        .getFirst()
        .type();
  }

  @Test
  void plainSelectWithStarLimitAndOffset() {
    QueryPlan plan = planner().plan("SELECT * FROM obs.metrics LIMIT 10 OFFSET 20");

    assertThat(plan.aggregated()).isFalse();
    assertThat(plan.outputs())
        .extracting(OutputColumn::name)
        .containsExactly(
            "org_id",
            "metric",
            "resolution",
            "logical_timestamp",
            "sum_rollup",
            "latest_rollup",
            "dimensions");
    assertThat(plan.limit()).isEqualTo(OptionalLong.of(10));
    assertThat(plan.offset()).isEqualTo(20);
    assertThat(plan.filter()).isEmpty();
  }

  @Test
  void limitSpellings() {
    assertThat(planner().plan("SELECT metric FROM obs.metrics LIMIT 20, 10").limit())
        .isEqualTo(OptionalLong.of(10));
    assertThat(planner().plan("SELECT metric FROM obs.metrics LIMIT 20, 10").offset())
        .isEqualTo(20);
    assertThat(planner().plan("SELECT metric FROM obs.metrics FETCH FIRST 3 ROWS ONLY").limit())
        .isEqualTo(OptionalLong.of(3));
    assertThat(planner().plan("SELECT metric FROM obs.metrics LIMIT 0").limit())
        .isEqualTo(OptionalLong.of(0));
    assertThat(planner().plan("SELECT metric FROM obs.metrics LIMIT 5;").limit())
        .isEqualTo(OptionalLong.of(5));
  }

  @Test
  void plainSelectOrdersByColumnsAliasesOrdinalsAndExpressions() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT metric AS m, sum_rollup FROM obs.metrics"
                    + " ORDER BY m DESC, 2 NULLS FIRST, org_id, sum_rollup * 2 DESC NULLS LAST"
                    + " LIMIT 5");

    assertThat(plan.orderBy().subList(0, 3))
        .containsExactly(
            new SortKey(
                new ColumnRef("metric", PrimitiveType.STRING), SortDirection.DESC, NullOrder.LAST),
            new SortKey(
                new ColumnRef("sum_rollup", PrimitiveType.DOUBLE),
                SortDirection.ASC,
                NullOrder.FIRST),
            new SortKey(
                new ColumnRef("org_id", PrimitiveType.LONG), SortDirection.ASC, NullOrder.LAST));
    assertThat(plan.orderBy().get(3).toString()).isEqualTo("(sum_rollup * 2) DESC NULLS LAST");
    assertThat(plan.referencedColumns())
        .extracting(Object::toString)
        .containsExactly("metric", "sum_rollup", "org_id");
  }

  @Test
  void namesResolveQualifiedAndIgnoringCase() {
    QueryPlan plan = planner().plan("SELECT m.org_id, METRIC FROM obs.metrics AS m LIMIT 1");
    assertThat(plan.outputs())
        .extracting(output -> output.expression().toString())
        .containsExactly("org_id", "metric");
    assertThat(plan.outputs()).extracting(OutputColumn::name).containsExactly("org_id", "METRIC");
    QueryPlan types =
        planner()
            .plan(
                "SELECT types.CamelCase, test.types.camelcase, \"Mixed\", mixed FROM test.types"
                    + " LIMIT 1");
    assertThat(types.outputs())
        .extracting(output -> output.expression().toString())
        .containsExactly("CamelCase", "CamelCase", "Mixed", "mixed");
    assertThat(types.outputs())
        .extracting(OutputColumn::name)
        .containsExactly("CamelCase", "camelcase", "Mixed", "mixed");
  }

  @Test
  void comparisonsPutTheLiteralOnTheRight() {
    assertThat(filter("15000 = int_col")).isEqualTo("(int_col = 15000)");
    assertThat(filter("5 < long_col")).isEqualTo("(long_col > 5)");
    assertThat(filter("5 >= long_col")).isEqualTo("(long_col <= 5)");
    assertThat(filter("long_col <> 5")).isEqualTo("(long_col <> 5)");
    assertThat(filter("long_col != 5")).isEqualTo("(long_col <> 5)");
    assertThat(filter("long_col < -5")).isEqualTo("(long_col < -5)");
  }

  @Test
  void predicates() {
    assertThat(filter("int_col BETWEEN 1 AND 10")).isEqualTo("(int_col BETWEEN 1 AND 10)");
    assertThat(filter("int_col NOT BETWEEN 1 AND 10")).isEqualTo("(int_col NOT BETWEEN 1 AND 10)");
    assertThat(filter("long_col IN (1, 2, 3)")).isEqualTo("(long_col IN (1, 2, 3))");
    assertThat(filter("string_col NOT IN ('a', 'b')")).isEqualTo("(string_col NOT IN ('a', 'b'))");
    assertThat(filter("string_col IS NULL")).isEqualTo("(string_col IS NULL)");
    assertThat(filter("metrics_map['x'] IS NOT NULL")).isEqualTo("(metrics_map['x'] IS NOT NULL)");
    assertThat(filter("string_col LIKE 'tk\\_%' ESCAPE '\\'"))
        .isEqualTo("(string_col LIKE 'tk\\_%' ESCAPE '\\')");
    assertThat(filter("string_col NOT LIKE '%cache'")).isEqualTo("(string_col NOT LIKE '%cache')");
    assertThat(filter("bool_col")).isEqualTo("(bool_col = TRUE)");
    assertThat(filter("NOT bool_col")).isEqualTo("(bool_col = FALSE)");
    assertThat(filter("int_col = 1 OR (int_col = 2 OR long_col = 3) AND string_col = 'x'"))
        .isEqualTo("((int_col = 1) OR (((int_col = 2) OR (long_col = 3)) AND (string_col = 'x')))");
  }

  @Test
  void mapKeysByBracketOrElementAt() {
    assertThat(filter("metrics_map['requests'] > 10")).isEqualTo("(metrics_map['requests'] > 10)");
    assertThat(filter("element_at(metrics_map, 'requests') > 10"))
        .isEqualTo("(metrics_map['requests'] > 10)");
    assertThat(outputType("metrics_map['requests']")).isEqualTo(PrimitiveType.LONG);
    assertThat(outputType("ELEMENT_AT(metrics_map, 'requests')")).isEqualTo(PrimitiveType.LONG);
  }

  @Test
  void constantsFold() {
    assertThat(filter("1 = 1")).isEqualTo("<none>");
    assertThat(filter("1 = 1 AND int_col = 2")).isEqualTo("(int_col = 2)");
    assertThat(filter("1 = 0 AND int_col = 2")).isEqualTo("FALSE");
    assertThat(filter("1 = 0 OR int_col = 2")).isEqualTo("(int_col = 2)");
    assertThat(filter("int_col = NULL")).isEqualTo("NULL");
    assertThat(filter("NULL IS NULL")).isEqualTo("<none>");
    assertThat(filter("long_col > 2 * 3 + 1")).isEqualTo("(long_col > 7)");
    assertThat(filter("double_col > 1 / 4")).isEqualTo("(double_col > 0.25)");
    assertThat(filter("'abc' LIKE 'a%'")).isEqualTo("<none>");
    assertThat(filter("3 BETWEEN 1 AND 2")).isEqualTo("FALSE");
    assertThat(filter("3 IN (1, NULL)")).isEqualTo("NULL");
    assertThat(filter("long_col = dateTrunc('hour', 1754229659999)"))
        .isEqualTo("(long_col = 1754229600000)");
  }

  @Test
  void arithmeticTypesFollowDuckDb() {
    assertThat(outputType("int_col + 1")).isEqualTo(PrimitiveType.INT);
    assertThat(outputType("long_col * int_col")).isEqualTo(PrimitiveType.LONG);
    assertThat(outputType("int_col + 1.5")).isEqualTo(new DecimalType(12, 1));
    assertThat(outputType("decimal_col * decimal_col")).isEqualTo(new DecimalType(20, 4));
    assertThat(outputType("decimal_col - long_col")).isEqualTo(new DecimalType(22, 2));
    assertThat(outputType("long_col / int_col")).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(outputType("float_col + float_col")).isEqualTo(PrimitiveType.FLOAT);
    assertThat(outputType("float_col + int_col")).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(outputType("double_col - decimal_col")).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(outputType("-int_col")).isEqualTo(PrimitiveType.INT);
    assertThat(outputType("1.5e3")).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(outputType("12345678901")).isEqualTo(PrimitiveType.LONG);
    assertThat(outputType("123456789012345678901")).isEqualTo(new DecimalType(21, 0));
  }

  @Test
  void aggregateResultTypes() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT SUM(int_col), SUM(long_col), SUM(float_col), SUM(decimal_col),"
                    + " AVG(long_col), AVG(decimal_col), MIN(string_col), MAX(ts_col),"
                    + " COUNT(list_col), COUNT(DISTINCT string_col), DISTINCTCOUNT(long_col),"
                    + " DISTINCTCOUNTHLL(string_col), APPROX_COUNT_DISTINCT(date_col), COUNT(1)"
                    + " FROM test.types");

    assertThat(plan.outputs())
        .extracting(OutputColumn::type)
        .containsExactly(
            PrimitiveType.LONG,
            PrimitiveType.LONG,
            PrimitiveType.DOUBLE,
            new DecimalType(38, 2),
            PrimitiveType.DOUBLE,
            PrimitiveType.DOUBLE,
            PrimitiveType.STRING,
            PrimitiveType.TIMESTAMP,
            PrimitiveType.LONG,
            PrimitiveType.LONG,
            PrimitiveType.LONG,
            PrimitiveType.LONG,
            PrimitiveType.LONG,
            PrimitiveType.LONG);
    assertThat(plan.aggregates())
        .extracting(AggregateCall::function)
        .containsExactly(
            AggregateFunction.SUM,
            AggregateFunction.SUM,
            AggregateFunction.SUM,
            AggregateFunction.SUM,
            AggregateFunction.AVG,
            AggregateFunction.AVG,
            AggregateFunction.MIN,
            AggregateFunction.MAX,
            AggregateFunction.COUNT,
            AggregateFunction.COUNT_DISTINCT,
            AggregateFunction.COUNT_DISTINCT,
            AggregateFunction.DISTINCT_COUNT_HLL,
            AggregateFunction.DISTINCT_COUNT_HLL,
            AggregateFunction.COUNT);
  }

  @Test
  void groupByAliasOrdinalOrExpression() {
    String expected = "[$key0 := date_trunc('hour', ts_col)]";
    for (String groupBy :
        List.of("h", "1", "date_trunc('hour', ts_col)", "dateTrunc('HOUR', ts_col)")) {
      QueryPlan plan =
          planner()
              .plan(
                  "SELECT date_trunc('hour', ts_col) AS h, COUNT(*) FROM test.types GROUP BY "
                      + groupBy);
      assertThat(plan.explain()).as(groupBy).contains("group by: " + expected);
      assertThat(plan.outputs().getFirst().expression().toString()).isEqualTo("$key0");
      assertThat(plan.outputs().getFirst().type()).isEqualTo(PrimitiveType.TIMESTAMP);
    }
  }

  @Test
  void groupedExpressionsAndDuplicateAggregates() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT org_id + 1 AS next_id, SUM(sum_rollup) / COUNT(*), SUM(sum_rollup)"
                    + " FROM obs.metrics GROUP BY org_id, org_id ORDER BY SUM(sum_rollup) DESC,"
                    + " MAX(latest_rollup)");

    assertThat(plan.explain())
        .isEqualTo(
            """
            table: obs.metrics
            group by: [$key0 := org_id]
            aggregates: [$agg0 := sum(sum_rollup), $agg1 := count(*), $agg2 := max(latest_rollup)]
            outputs: [next_id LONG := ($key0 + 1), sum(sum_rollup) / count(*) DOUBLE := ($agg0 / $agg1), \
            sum(sum_rollup) DOUBLE := $agg0]
            order by: [$agg0 DESC NULLS LAST, $agg2 ASC NULLS LAST]""");
  }

  @Test
  void havingUsesAliasesAggregatesAndKeys() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT metric, COUNT(*) AS c FROM obs.metrics GROUP BY metric"
                    + " HAVING c > 10 AND AVG(sum_rollup) >= '1.5' AND metric LIKE 'tk%'"
                    + " ORDER BY c");

    assertThat(plan.having().orElseThrow().toString())
        .isEqualTo("(($agg0 > 10) AND ($agg1 >= 1.5) AND ($key0 LIKE 'tk%'))");
    assertThat(plan.aggregates()).hasSize(2);
    assertThat(plan.orderBy().getFirst().expression())
        .isEqualTo(new AggregateRef(0, PrimitiveType.LONG));
  }

  @Test
  void havingWithoutGroupByIsOneGroup() {
    QueryPlan plan = planner().plan("SELECT COUNT(*) FROM obs.metrics HAVING COUNT(*) > 0");

    assertThat(plan.aggregated()).isTrue();
    assertThat(plan.groupKeys()).isEmpty();
    assertThat(plan.having().orElseThrow().toString()).isEqualTo("($agg0 > 0)");
  }

  @Test
  void aggregatesOverMapKeysAndExpressions() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT dimensions['region'], SUM(sum_rollup * 2), MIN(dimensions['pod'])"
                    + " FROM obs.metrics WHERE dimensions['env'] = 'prod'"
                    + " GROUP BY dimensions['region']");

    assertThat(plan.explain())
        .isEqualTo(
            """
            table: obs.metrics
            filter: (dimensions['env'] = 'prod')
            group by: [$key0 := dimensions['region']]
            aggregates: [$agg0 := sum((sum_rollup * 2)), $agg1 := min(dimensions['pod'])]
            outputs: [dimensions['region'] STRING := $key0, sum(sum_rollup * 2) DOUBLE := $agg0, \
            min(dimensions['pod']) STRING := $agg1]""");
  }

  @Test
  void dateTruncOnTimestampsKeepsTheirType() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT date_trunc('week', tstz_col) AS w, datetrunc('year', ts_col) AS y,"
                    + " COUNT(*) FROM test.types GROUP BY 1, 2");

    assertThat(plan.groupKeys())
        .extracting(Object::toString)
        .containsExactly("date_trunc('week', tstz_col)", "date_trunc('year', ts_col)");
    assertThat(plan.outputs())
        .extracting(OutputColumn::type)
        .containsExactly(PrimitiveType.TIMESTAMP_TZ, PrimitiveType.TIMESTAMP, PrimitiveType.LONG);
  }

  @Test
  void countStarWithoutGroupByIsOneGroup() {
    QueryPlan plan = planner().plan("SELECT COUNT(*) AS n FROM obs.metrics LIMIT 1");

    assertThat(plan.aggregated()).isTrue();
    assertThat(plan.outputs())
        .containsExactly(new OutputColumn("n", new AggregateRef(0, PrimitiveType.LONG)));
    assertThat(plan.filterConjuncts()).isEmpty();
    assertThat(plan.referencedColumns()).isEmpty();
  }

  @Test
  void literalsInTheSelectList() {
    QueryPlan plan =
        planner()
            .plan("SELECT 'x' AS tag, 1 + 2, TRUE, DATE '2025-08-03' FROM obs.metrics LIMIT 1");

    assertThat(plan.outputs())
        .extracting(OutputColumn::expression)
        .containsExactly(
            Literal.ofString("x"),
            Literal.ofInt(3),
            Literal.of(true),
            new Literal(20303, PrimitiveType.DATE));
  }
}
