package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.result.FinalResult;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.testing.oracle.QueryResult;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A table preview ({@code SELECT *}) reads a whole MAP column and renders each value as a JSON
 * object (a {@code Map} the broker's JSON writer turns into {@code {"k": "v"}}), typed MAP.
 */
class TestMapPreview {
  private static final String ORDER =
      " ORDER BY org_id, metric, resolution, logical_timestamp, sum_rollup NULLS FIRST,"
          + " latest_rollup NULLS FIRST";

  @Test
  void selectStarRendersMapsAsDuckDbHoldsThem() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    for (Mode mode : List.of(Mode.PINNED, Mode.REMOTE)) {
      try (TestingEngine engine = new TestingEngine(lake, lake.metrics, mode)) {
        FinalResult result = engine.finalResult("SELECT * FROM obs.metrics" + ORDER + " LIMIT 20");
        assertThat(result.columnDataTypes()).last().isEqualTo("MAP");
        QueryResult duckDb =
            lake.oracle.query(
                "SELECT CAST(dimensions AS VARCHAR) FROM obs.metrics" + ORDER + " LIMIT 20");
        List<String> rendered = new ArrayList<>();
        for (List<Object> row : result.rows()) {
          rendered.add(duckDbText((Map<?, ?>) row.getLast()));
        }
        List<Object> expected = new ArrayList<>();
        for (List<Object> row : duckDb.rows()) {
          expected.add(row.getFirst());
        }
        assertThat(rendered).as(mode.toString()).hasSize(20).isEqualTo(expected);
      }
    }
  }

  @Test
  void noRowsStillTypesTheMapColumn() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      FinalResult result = engine.finalResult("SELECT * FROM obs.metrics LIMIT 0");
      assertThat(result.rows()).isEmpty();
      assertThat(result.columnDataTypes()).last().isEqualTo("MAP");
    }
  }

  // DuckDB's text of a MAP: {k1=v1, k2=v2}.
  private static String duckDbText(Map<?, ?> map) {
    List<String> entries = new ArrayList<>();
    map.forEach((key, value) -> entries.add(key + "=" + value));
    return "{" + String.join(", ", entries) + "}";
  }
}
