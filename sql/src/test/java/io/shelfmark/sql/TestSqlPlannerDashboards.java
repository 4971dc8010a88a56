package io.shelfmark.sql;

import static io.shelfmark.sql.TestingTables.planner;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.PrimitiveType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The SQL that dashboards and Pinot's clients generate plans (issue 20). */
class TestSqlPlannerDashboards {
  private static PlannedStatement.Constant constant(String sql) {
    return (PlannedStatement.Constant) planner().planStatement(sql);
  }

  @Test
  void selectWithoutFromIsOneRowOfConstants() {
    PlannedStatement.Constant ping = constant("SELECT 1");
    assertThat(ping.rows()).containsExactly(List.of(1));
    assertThat(ping.query().outputs()).extracting(OutputColumn::name).containsExactly("1");

    PlannedStatement.Constant row = constant("SELECT 1 AS x, 'a', 2 + 3 AS five, NULL AS n");
    assertThat(row.query().outputs())
        .extracting(OutputColumn::name)
        .containsExactly("x", "'a'", "five", "n");
    assertThat(row.rows()).containsExactly(java.util.Arrays.asList(1, "a", 5, null));
    assertThat(row.query().outputs().get(1).type()).isEqualTo(PrimitiveType.STRING);
  }

  @Test
  void selectWithoutFromHonoursLimitZero() {
    assertThat(constant("SELECT 1 LIMIT 0").rows()).isEmpty();
    assertThat(constant("SELECT 1 LIMIT 5").rows()).hasSize(1);
  }

  @Test
  void setPrefixesAndOptionClauseAreOptions() {
    PlannedStatement planned =
        planner()
            .planStatement(
                "SET timeoutMs=2000; SET useMultistageEngine = true;\n"
                    + "SELECT COUNT(*) FROM obs.metrics");
    assertThat(planned.options().timeout()).contains(Duration.ofMillis(2000));
    assertThat(planned.options().value("useMultistageEngine")).contains("true");
    assertThat(planned).isInstanceOf(PlannedStatement.OverTable.class);

    PlannedStatement option =
        planner()
            .planStatement(
                "SELECT metric FROM obs.metrics WHERE metric <> 'OPTION(x=1)' LIMIT 3"
                    + " OPTION(timeoutMs=5000, skipUpsert='true');");
    assertThat(option.options().timeout()).contains(Duration.ofMillis(5000));
    assertThat(option.options().value("skipUpsert")).contains("true");
    assertThat(((PlannedStatement.OverTable) option).plan().limit().getAsLong()).isEqualTo(3);
  }

  @Test
  void optionClauseOverridesSetAndPlainQueriesHaveNone() {
    PlannedStatement planned =
        planner().planStatement("SET timeoutMs=1; SELECT 1 OPTION(timeoutMs=2)");
    assertThat(planned.options().timeout()).contains(Duration.ofMillis(2));
    assertThat(planner().planStatement("SELECT 1").options().timeout()).isEqualTo(Optional.empty());
  }

  @Test
  void distinctIsGroupingByTheSelectList() {
    QueryPlan distinct =
        planner()
            .plan(
                "SELECT DISTINCT metric, resolution FROM obs.metrics WHERE org_id = 1"
                    + " ORDER BY metric LIMIT 10");
    QueryPlan grouped =
        planner()
            .plan(
                "SELECT metric, resolution FROM obs.metrics WHERE org_id = 1"
                    + " GROUP BY metric, resolution ORDER BY metric LIMIT 10");
    assertThat(distinct).isEqualTo(grouped);
  }

  private static String constantValue(String expression) {
    Object value =
        constant("SELECT " + expression).query().outputs().getFirst().expression().toString();
    return (String) value;
  }

  private static String bound(String expression) {
    return planner()
        .plan("SELECT " + expression + " AS x FROM test.types LIMIT 1")
        .outputs()
        .getFirst()
        .expression()
        .toString();
  }

  @Test
  void castsOfLiteralsFoldAsDuckDbDoes() {
    assertThat(constantValue("CAST('42' AS BIGINT)")).isEqualTo("42");
    assertThat(constantValue("CAST(2.5 AS INT)")).isEqualTo("3");
    assertThat(constantValue("CAST(-2.5 AS INT)")).isEqualTo("-3");
    assertThat(constantValue("CAST(7 AS DOUBLE)")).isEqualTo("7.0");
    assertThat(constantValue("CAST(1.005 AS DECIMAL(5, 2))")).isEqualTo("1.01");
    assertThat(constantValue("CAST(12 AS VARCHAR)")).isEqualTo("'12'");
    assertThat(constantValue("CAST(TRUE AS VARCHAR)")).isEqualTo("'true'");
    assertThat(constantValue("CAST(DATE '2026-01-02' AS VARCHAR)")).isEqualTo("'2026-01-02'");
    assertThat(constantValue("CAST('2026-01-02' AS DATE)")).isEqualTo("DATE '2026-01-02'");
    assertThat(constantValue("CAST(DATE '2026-01-02' AS TIMESTAMP)"))
        .isEqualTo("TIMESTAMP '2026-01-02 00:00:00'");
    assertThat(constantValue("CAST(TIMESTAMP '2026-01-02 10:00:00' AS DATE)"))
        .isEqualTo("DATE '2026-01-02'");
    // Pinot's convention: a BIGINT cast to TIMESTAMP is epoch milliseconds.
    assertThat(constantValue("CAST(1767312000000 AS TIMESTAMP)"))
        .isEqualTo("TIMESTAMP '2026-01-02 00:00:00'");
  }

  @Test
  void castsOfColumnsAreWideningsOrEpochMillis() {
    assertThat(bound("CAST(int_col AS BIGINT)")).isEqualTo("CAST(int_col AS LONG)");
    assertThat(bound("CAST(ts_col AS TIMESTAMP)")).isEqualTo("ts_col");
    assertThat(bound("CAST(date_col AS TIMESTAMP)")).isEqualTo("CAST(date_col AS TIMESTAMP)");
    assertThat(bound("CAST(long_col AS TIMESTAMP)"))
        .isEqualTo("CAST((long_col * 1000) AS TIMESTAMP)");
  }

  @Test
  void supersetTimeGrainsPlan() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT CAST(DATE_TRUNC('hour', CAST(logical_timestamp AS TIMESTAMP)) AS"
                    + " TIMESTAMP) AS __timestamp, COUNT(*) FROM obs.metrics GROUP BY"
                    + " CAST(DATE_TRUNC('hour', CAST(logical_timestamp AS TIMESTAMP)) AS"
                    + " TIMESTAMP) LIMIT 100");
    assertThat(plan.groupKeys()).hasSize(1);
    assertThat(plan.outputs().getFirst().type()).isEqualTo(PrimitiveType.TIMESTAMP);
  }

  private static List<io.shelfmark.sql.expression.Expression> keys(String key) {
    return planner()
        .plan("SELECT " + key + ", COUNT(*) FROM obs.metrics GROUP BY " + key)
        .groupKeys();
  }

  @Test
  void dateTimeConvertIsTheDateTruncBucket() {
    assertThat(
            keys(
                "DATETIMECONVERT(logical_timestamp, '1:MILLISECONDS:EPOCH',"
                    + " '1:MILLISECONDS:EPOCH', '1:MINUTES')"))
        .isEqualTo(keys("dateTrunc('minute', logical_timestamp)"));
    assertThat(
            keys(
                "DATETIMECONVERT(logical_timestamp, 'EPOCH|MILLISECONDS|1', 'EPOCH_MILLIS',"
                    + " '1:HOURS')"))
        .isEqualTo(keys("dateTrunc('hour', logical_timestamp)"));
    assertThat(
            keys("DATETIMECONVERT(logical_timestamp, '1:MILLISECONDS:EPOCH',"
                    + " '1:MILLISECONDS:EPOCH', '300000:MILLISECONDS')")
                .toString())
        .isEqualTo("[date_bin(5 minute, logical_timestamp)]");
    assertThat(
            keys("DATETIMECONVERT(logical_timestamp, '1:MILLISECONDS:EPOCH',"
                    + " '1:MILLISECONDS:EPOCH', '90:SECONDS')")
                .toString())
        .isEqualTo("[date_bin(90 second, logical_timestamp)]");
  }

  @Test
  void supersetRoundGrainsAreBuckets() {
    assertThat(
            keys("CAST(ROUND(DATE_TRUNC('minute', CAST(logical_timestamp AS TIMESTAMP)),"
                    + " 300000) AS TIMESTAMP)")
                .toString())
        .isEqualTo("[date_bin(5 minute, CAST((logical_timestamp * 1000) AS TIMESTAMP))]");
  }

  @Test
  void pinotsLongerDateTruncIsTheTwoArgumentOneInUtcMillis() {
    assertThat(keys("DATETRUNC('DAY', logical_timestamp, 'MILLISECONDS', 'UTC', 'MILLISECONDS')"))
        .isEqualTo(keys("dateTrunc('day', logical_timestamp)"));
    assertThat(keys("dateTrunc('hour', logical_timestamp, 'MILLISECONDS')"))
        .isEqualTo(keys("dateTrunc('hour', logical_timestamp)"));
  }

  @Test
  void fromDateTimeAndToDateTimeFoldLiterals() {
    QueryPlan plan =
        planner()
            .plan(
                "SELECT COUNT(*) FROM obs.metrics WHERE logical_timestamp >="
                    + " FromDateTime('2026-01-02 10:00:00', 'yyyy-MM-dd HH:mm:ss')"
                    + " AND logical_timestamp < fromDateTime('2026-01-03', 'yyyy-MM-dd', 'UTC')");
    assertThat(plan.filter().orElseThrow().toString())
        .isEqualTo(
            "((logical_timestamp >= 1767348000000) AND (logical_timestamp < 1767398400000))");
    assertThat(constantValue("ToDateTime(1767348000000, 'yyyy-MM-dd HH:mm')"))
        .isEqualTo("'2026-01-02 10:00'");
  }

  @Test
  void pinotEpochFunctionsAreLongArithmetic() {
    assertThat(bound("ToEpochMinutes(long_col)")).isEqualTo("(long_col // 60000)");
    assertThat(bound("ToEpochSecondsRounded(long_col, 10)"))
        .isEqualTo("((long_col // 10000) * 10)");
    assertThat(bound("ToEpochHoursBucket(long_col, 6)")).isEqualTo("(long_col // 21600000)");
    assertThat(bound("FromEpochDays(int_col)")).isEqualTo("(CAST(int_col AS LONG) * 86400000)");
    assertThat(constantValue("ToEpochDays(1767398399999)")).isEqualTo("20455");
    assertThat(constantValue("FromEpochSeconds(1767312000)")).isEqualTo("1767312000000");
  }
}
