package io.shelfmark.broker.flightsql;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestParameterTypes {
  /** The probes a planner would type, by their exact text; any other probe does not plan. */
  private static final Map<String, SqlType> PLANNED =
      Map.of(
          "SELECT org_id FROM obs.metrics LIMIT 1", PrimitiveType.LONG,
          "SELECT resolution FROM obs.metrics LIMIT 1", PrimitiveType.INT,
          "SELECT sum_rollup FROM obs.metrics LIMIT 1", PrimitiveType.DOUBLE,
          "SELECT metric FROM obs.metrics LIMIT 1", PrimitiveType.STRING,
          "SELECT m.org_id FROM obs.metrics m LIMIT 1", PrimitiveType.LONG,
          "SELECT dimensions['service'] FROM obs.metrics LIMIT 1", PrimitiveType.STRING,
          "SELECT dateTrunc('second', ts) FROM obs.metrics LIMIT 1", PrimitiveType.TIMESTAMP);

  private final List<String> probes = new ArrayList<>();

  private List<Optional<SqlType>> infer(String sql) {
    return ParameterTypes.infer(
        sql,
        probe -> {
          probes.add(probe);
          return Optional.ofNullable(PLANNED.get(probe));
        });
  }

  @Test
  void comparisonsTakeTheTypeOfTheirOtherSide() {
    assertThat(
            infer(
                "SELECT metric, COUNT(*) FROM obs.metrics WHERE org_id = ? AND ? < resolution"
                    + " AND sum_rollup >= ? AND metric <> ? GROUP BY metric"))
        .containsExactly(
            Optional.of(PrimitiveType.LONG),
            Optional.of(PrimitiveType.INT),
            Optional.of(PrimitiveType.DOUBLE),
            Optional.of(PrimitiveType.STRING));
  }

  @Test
  void inListsAndBetweenTakeTheTypeOfTheirColumn() {
    assertThat(
            infer(
                "SELECT * FROM obs.metrics WHERE resolution NOT IN (?, 5, ?)"
                    + " AND org_id BETWEEN ? AND ? AND sum_rollup NOT BETWEEN ? AND ?"))
        .containsExactly(
            Optional.of(PrimitiveType.INT),
            Optional.of(PrimitiveType.INT),
            Optional.of(PrimitiveType.LONG),
            Optional.of(PrimitiveType.LONG),
            Optional.of(PrimitiveType.DOUBLE),
            Optional.of(PrimitiveType.DOUBLE));
  }

  @Test
  void qualifiedNamesMapKeysAndCallsAreProbedWhole() {
    assertThat(infer("SELECT 1 FROM obs . metrics m WHERE m.org_id = ?"))
        .containsExactly(Optional.of(PrimitiveType.LONG));
    assertThat(infer("SELECT 1 FROM obs.metrics WHERE dimensions['service'] = ?"))
        .containsExactly(Optional.of(PrimitiveType.STRING));
    assertThat(infer("SELECT 1 FROM obs.metrics WHERE dateTrunc('second', ts) >= ? LIMIT 5"))
        .containsExactly(Optional.of(PrimitiveType.TIMESTAMP));
  }

  @Test
  void placeholdersWithoutAComparedExpressionHaveNoType() {
    // An output, arithmetic, a quoted '?', a comment and a placeholder in a LIMIT: none is typed.
    assertThat(
            infer(
                "SELECT ? AS x, org_id + ? FROM obs.metrics -- what ? is\n"
                    + " WHERE metric = '?' LIMIT ?"))
        .containsExactly(Optional.empty(), Optional.empty(), Optional.empty());
    assertThat(infer("SELECT ? = 1")).containsExactly(Optional.empty());
    assertThat(probes).isEmpty();
  }

  @Test
  void anExpressionThatDoesNotPlanAloneHasNoType() {
    assertThat(infer("SELECT 1 FROM obs.metrics WHERE no_such_column = ?"))
        .containsExactly(Optional.empty());
    assertThat(probes).containsExactly("SELECT no_such_column FROM obs.metrics LIMIT 1");
  }
}
