package io.shelfmark.cli.node.warmup;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.generator.MetricsTable;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TestWarmupQueries {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void benchmarkTableWarmsEveryIndexAggregateAndGroupBy() throws Exception {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    WarmupQueries shape = WarmupQueries.of("obs.metrics", config, MetricsTable.SCHEMA);

    assertThat(shape.isEmpty()).isFalse();
    assertThat(shape.sampleSql())
        .isEqualTo(
            "SELECT \"metric\", \"org_id\", \"resolution\", \"logical_timestamp\","
                + " \"dimensions\"['node'], \"dimensions\"['service'] FROM obs.metrics LIMIT 1");

    JsonNode row = JSON.readTree("[\"cpu\", 17, 60000, 1754229600000, \"n1\", \"it's\"]");
    List<String> queries = shape.queries(row);
    String time =
        "\"logical_timestamp\" >= 1754229600000 - 3600000"
            + " AND \"logical_timestamp\" <= 1754229600000 + 3600000";
    String all = "\"metric\" = 'cpu' AND \"org_id\" = 17 AND \"resolution\" = 60000 AND " + time;
    assertThat(queries)
        .contains(
            "SELECT COUNT(*) FROM obs.metrics WHERE \"metric\" = 'cpu' AND " + time,
            "SELECT COUNT(*) FROM obs.metrics WHERE \"resolution\" = 60000 AND " + time,
            "SELECT COUNT(*) FROM obs.metrics WHERE " + all,
            "SELECT SUM(\"sum_rollup\"), MIN(\"sum_rollup\"), MAX(\"sum_rollup\"),"
                + " AVG(\"sum_rollup\"), COUNT(*) FROM obs.metrics WHERE "
                + all,
            "SELECT SUM(\"latest_rollup\"), MIN(\"latest_rollup\"), MAX(\"latest_rollup\"),"
                + " AVG(\"latest_rollup\"), COUNT(*) FROM obs.metrics WHERE "
                + all,
            "SELECT dateTrunc('second', \"logical_timestamp\") AS time_bucket,"
                + " AVG(\"sum_rollup\") FROM obs.metrics WHERE "
                + all
                + " GROUP BY dateTrunc('second', \"logical_timestamp\") ORDER BY time_bucket",
            // The sampled value's quote is doubled, not left to end the literal.
            "SELECT \"dimensions\"['node'] AS g, SUM(\"sum_rollup\") AS total FROM obs.metrics"
                + " WHERE "
                + all
                + " AND \"dimensions\"['service'] = 'it''s' GROUP BY \"dimensions\"['node']"
                + " ORDER BY total DESC");
    assertThat(queries).hasSize(3 + 1 + 2 + 2 + 2).doesNotHaveDuplicates();
  }

  @Test
  void nullSampledValuesAreLeftOutOfTheFilters() throws Exception {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    WarmupQueries shape = WarmupQueries.of("obs.metrics", config, MetricsTable.SCHEMA);
    List<String> queries = shape.queries(JSON.readTree("[null, 17, 60000, null, null, null]"));
    assertThat(queries)
        .allSatisfy(sql -> assertThat(sql).doesNotContain("\"metric\" =").doesNotContain(">="))
        .noneMatch(sql -> sql.contains("dateTrunc") || sql.contains("dimensions"))
        .contains(
            "SELECT COUNT(*) FROM obs.metrics WHERE \"org_id\" = 17",
            "SELECT COUNT(*) FROM obs.metrics WHERE \"org_id\" = 17 AND \"resolution\" = 60000");
  }

  @Test
  void tableWithoutFilterableIndexesHasNothingToWarmUpWith() {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()), optional(2, "amount", Types.DoubleType.get()));
    TableConfig config =
        TableConfig.builder(new TableIdentity("c", "n", "t"))
            .column("amount", ColumnConfig.of(IndexKind.RANGE))
            .build();
    assertThat(WarmupQueries.of("n.t", config, schema).isEmpty()).isTrue();
  }
}
