package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** BENCHMARK.md's four queries, equal to DuckDB's answers over the same files, in every mode. */
class TestBenchmarkQueries {
  static final String Q1 =
      "SELECT COUNT(*) FROM obs.metrics WHERE resolution = 15000 "
          + "AND logical_timestamp >= 1754229600000 - 3600000 AND logical_timestamp <= 1754229600000";
  static final String Q2 =
      "SELECT SUM(sum_rollup) FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768 "
          + "AND resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000 "
          + "AND logical_timestamp <= 1754229600000";
  static final String Q3 =
      "SELECT dateTrunc('second', logical_timestamp) AS time_bucket, AVG(latest_rollup) "
          + "FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = '184833768' "
          + "AND resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000 "
          + "AND logical_timestamp <= 1754229600000 "
          + "GROUP BY dateTrunc('second', logical_timestamp) ORDER BY time_bucket";
  static final String Q3_DUCKDB =
      "SELECT epoch_ms(date_trunc('second', make_timestamp(logical_timestamp * 1000))) AS time_bucket, "
          + "AVG(latest_rollup) FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768 "
          + "AND resolution = 15000 AND logical_timestamp >= 1754229600000 - 3600000 "
          + "AND logical_timestamp <= 1754229600000 GROUP BY 1 ORDER BY time_bucket";
  static final String Q4 =
      "SELECT dimensions['service'] AS service, SUM(sum_rollup) AS total_value FROM obs.metrics "
          + "WHERE metric = 'tk_cache' AND org_id = '184833768' AND resolution = 15000 "
          + "AND dimensions['node'] = 'xyz' AND logical_timestamp >= 1754229600000 - 360000 "
          + "AND logical_timestamp <= 1754229600000 "
          + "GROUP BY dimensions['service'] ORDER BY total_value DESC";
  static final String Q4_DUCKDB = Q4.replace("'184833768'", "184833768");

  @ParameterizedTest
  @EnumSource(Mode.class)
  void benchmarkQueriesEqualDuckDb(Mode mode) throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, mode)) {
      for (List<String> query :
          List.of(
              List.of(Q1, Q1), List.of(Q2, Q2), List.of(Q3, Q3_DUCKDB), List.of(Q4, Q4_DUCKDB))) {
        QueryResult expected = lake.oracle.query(query.get(1));
        QueryResult actual = engine.query(query.get(0));
        assertThat(expected.rowCount()).as(query.get(0)).isGreaterThan(0);
        ResultComparison.assertEquivalent(expected, actual, true, 1e-9);
      }
      // The needle exists and Q4 finds it (not an empty answer matching an empty answer).
      assertThat(lake.oracle.query(Q4_DUCKDB).rowCount()).isGreaterThan(0);
    }
  }
}
