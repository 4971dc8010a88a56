package io.shelfmark.sql;

import static io.shelfmark.sql.TestingTables.planner;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.DateTruncUnit;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.GroupKeyRef;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.NullOrder;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortDirection;
import io.shelfmark.sql.plan.SortKey;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The four queries of BENCHMARK.md, as written there, bind to the plans the server expects. */
class TestSqlPlannerBenchmarkQueries {
  static final String Q1 =
      """
      SELECT COUNT(*) FROM obs.metrics
      WHERE resolution = 15000
        AND logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000""";
  static final String Q2 =
      """
      SELECT SUM(sum_rollup) FROM obs.metrics
      WHERE metric = 'tk_cache' AND org_id = 184833768 AND resolution = 15000
        AND logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000""";
  static final String Q3 =
      """
      SELECT dateTrunc('second', logical_timestamp) AS time_bucket, AVG(latest_rollup)
      FROM obs.metrics
      WHERE metric = 'tk_cache' AND org_id = '184833768' AND resolution = 15000
        AND logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000
      GROUP BY dateTrunc('second', logical_timestamp) ORDER BY time_bucket""";
  static final String Q4 =
      """
      SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value
      FROM obs.metrics
      WHERE metric = 'tk_cache' AND org_id = '184833768' AND resolution = 15000
        AND dimensions['node'] = 'xyz'
        AND logical_timestamp >= 1754229600000 - 360000 AND logical_timestamp <= 1754229600000
      GROUP BY dimensions['service'] ORDER BY total_value DESC""";

  private static final ColumnRef ORG_ID = new ColumnRef("org_id", PrimitiveType.LONG);
  private static final ColumnRef METRIC = new ColumnRef("metric", PrimitiveType.STRING);
  private static final ColumnRef RESOLUTION = new ColumnRef("resolution", PrimitiveType.INT);
  private static final ColumnRef TIMESTAMP = new ColumnRef("logical_timestamp", PrimitiveType.LONG);

  @Test
  void q1FilteredCount() {
    QueryPlan plan = planner().plan(Q1);

    assertThat(plan.table()).isEqualTo(TestingTables.METRICS);
    assertThat(plan.filterConjuncts())
        .containsExactly(
            new Comparison(ComparisonOperator.EQUAL, RESOLUTION, Literal.ofInt(15000)),
            new Comparison(
                ComparisonOperator.GREATER_THAN_OR_EQUAL,
                TIMESTAMP,
                Literal.ofLong(1754226000000L)),
            new Comparison(
                ComparisonOperator.LESS_THAN_OR_EQUAL, TIMESTAMP, Literal.ofLong(1754229600000L)));
    assertThat(plan.aggregated()).isTrue();
    assertThat(plan.groupKeys()).isEmpty();
    assertThat(plan.aggregates()).containsExactly(AggregateCall.countStar());
    assertThat(plan.outputs())
        .containsExactly(new OutputColumn("count(*)", new AggregateRef(0, PrimitiveType.LONG)));
    assertThat(plan.orderBy()).isEmpty();
    assertThat(plan.limit()).isEmpty();
    assertThat(plan.referencedColumns()).containsExactly(RESOLUTION, TIMESTAMP);
  }

  @Test
  void q2SelectiveSum() {
    QueryPlan plan = planner().plan(Q2);

    assertThat(plan.filterConjuncts())
        .containsExactly(
            new Comparison(ComparisonOperator.EQUAL, METRIC, Literal.ofString("tk_cache")),
            new Comparison(ComparisonOperator.EQUAL, ORG_ID, Literal.ofLong(184833768L)),
            new Comparison(ComparisonOperator.EQUAL, RESOLUTION, Literal.ofInt(15000)),
            new Comparison(
                ComparisonOperator.GREATER_THAN_OR_EQUAL,
                TIMESTAMP,
                Literal.ofLong(1754226000000L)),
            new Comparison(
                ComparisonOperator.LESS_THAN_OR_EQUAL, TIMESTAMP, Literal.ofLong(1754229600000L)));
    AggregateCall sum =
        AggregateCall.of(AggregateFunction.SUM, new ColumnRef("sum_rollup", PrimitiveType.DOUBLE));
    assertThat(plan.aggregates()).containsExactly(sum);
    assertThat(sum.type()).isEqualTo(PrimitiveType.DOUBLE);
    assertThat(plan.outputs())
        .containsExactly(
            new OutputColumn("sum(sum_rollup)", new AggregateRef(0, PrimitiveType.DOUBLE)));
  }

  @Test
  void q3TimeBuckets() {
    QueryPlan plan = planner().plan(Q3);

    // The string literal compared with the LONG org_id is cast at bind time.
    assertThat(plan.filterConjuncts())
        .contains(new Comparison(ComparisonOperator.EQUAL, ORG_ID, Literal.ofLong(184833768L)));
    DateTrunc bucket = new DateTrunc(DateTruncUnit.SECOND, TIMESTAMP);
    assertThat(plan.groupKeys()).containsExactly(bucket);
    assertThat(plan.aggregates())
        .containsExactly(
            AggregateCall.of(
                AggregateFunction.AVG, new ColumnRef("latest_rollup", PrimitiveType.DOUBLE)));
    assertThat(plan.outputs())
        .containsExactly(
            new OutputColumn("time_bucket", new GroupKeyRef(0, PrimitiveType.LONG)),
            new OutputColumn("avg(latest_rollup)", new AggregateRef(0, PrimitiveType.DOUBLE)));
    assertThat(plan.orderBy())
        .containsExactly(
            new SortKey(new GroupKeyRef(0, PrimitiveType.LONG), SortDirection.ASC, NullOrder.LAST));
  }

  @Test
  void q4MapKeyGroups() {
    QueryPlan plan = planner().plan(Q4);

    MapKeyRef service = new MapKeyRef("dimensions", "service", PrimitiveType.STRING);
    MapKeyRef node = new MapKeyRef("dimensions", "node", PrimitiveType.STRING);
    assertThat(plan.filterConjuncts())
        .containsExactly(
            new Comparison(ComparisonOperator.EQUAL, METRIC, Literal.ofString("tk_cache")),
            new Comparison(ComparisonOperator.EQUAL, ORG_ID, Literal.ofLong(184833768L)),
            new Comparison(ComparisonOperator.EQUAL, RESOLUTION, Literal.ofInt(15000)),
            new Comparison(ComparisonOperator.EQUAL, node, Literal.ofString("xyz")),
            new Comparison(
                ComparisonOperator.GREATER_THAN_OR_EQUAL,
                TIMESTAMP,
                Literal.ofLong(1754229240000L)),
            new Comparison(
                ComparisonOperator.LESS_THAN_OR_EQUAL, TIMESTAMP, Literal.ofLong(1754229600000L)));
    assertThat(plan.groupKeys()).containsExactly(service);
    assertThat(plan.outputs())
        .containsExactly(
            new OutputColumn("service", new GroupKeyRef(0, PrimitiveType.STRING)),
            new OutputColumn("total_value", new AggregateRef(0, PrimitiveType.DOUBLE)));
    assertThat(plan.orderBy())
        .containsExactly(
            new SortKey(
                new AggregateRef(0, PrimitiveType.DOUBLE), SortDirection.DESC, NullOrder.LAST));
    List<Expression> read = plan.referencedColumns();
    assertThat(read)
        .containsExactly(
            METRIC,
            ORG_ID,
            RESOLUTION,
            node,
            TIMESTAMP,
            service,
            new ColumnRef("sum_rollup", PrimitiveType.DOUBLE));
    assertThat(plan.having()).isEqualTo(Optional.empty());
  }

  @Test
  void explainShowsEveryClause() {
    assertThat(planner().plan(Q3).explain())
        .isEqualTo(
            """
            table: obs.metrics
            filter: ((metric = 'tk_cache') AND (org_id = 184833768) AND (resolution = 15000) \
            AND (logical_timestamp >= 1754226000000) AND (logical_timestamp <= 1754229600000))
            group by: [$key0 := date_trunc('second', logical_timestamp)]
            aggregates: [$agg0 := avg(latest_rollup)]
            outputs: [time_bucket LONG := $key0, avg(latest_rollup) DOUBLE := $agg0]
            order by: [$key0 ASC NULLS LAST]""");
  }
}
