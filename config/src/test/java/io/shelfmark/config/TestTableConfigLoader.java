package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.StarTreeConfig;
import io.shelfmark.config.table.StarTreeDimensionConfig;
import io.shelfmark.config.table.StarTreeFunction;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTableConfigLoader {
  @TempDir Path directory;

  @Test
  void loadsBundledBenchmarkTable() {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    assertThat(config.identity()).isEqualTo(new TableIdentity("shelfmark", "obs", "metrics"));
    assertThat(config.identity().qualifiedName()).isEqualTo("obs.metrics");
    assertThat(config.timeColumn()).contains("logical_timestamp");
    assertThat(config.columns())
        .containsExactly(
            Map.entry("metric", ColumnConfig.of(IndexKind.INVERTED)),
            Map.entry("org_id", ColumnConfig.of(IndexKind.INVERTED)),
            Map.entry("resolution", ColumnConfig.of(IndexKind.INVERTED)),
            Map.entry("logical_timestamp", ColumnConfig.of(IndexKind.RANGE)));
    assertThat(config.mapKeys())
        .containsExactly(
            Map.entry("dimensions", new MapKeySelection.Listed(List.of("node", "service"))));
    assertThat(config.replication()).isEqualTo(2);
    assertThat(config.refreshInterval()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void refusesUnknownBundledResource() {
    assertThatThrownBy(() -> ConfigLoader.loadBundledTable("nope.table.yaml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load bundled table config nope.table.yaml: no such resource (bundled:"
                + " obs-metrics.table.yaml)");
  }

  @Test
  void readsYamlAndJsonAlike() throws Exception {
    String yaml =
        """
        table: {catalog: lake, namespace: ads, name: clicks}
        columns:
          campaign: {indexes: [inverted, forward]}
          ts: {indexes: [range, sorted]}
          user_id: {indexes: [bloom]}
        map-keys:
          labels: {auto: true, min-share: 0.05}
          tags: {auto: true}
        replication: 3
        refresh-interval: 5m
        """;
    String json =
        """
        {"table": {"catalog": "lake", "namespace": "ads", "name": "clicks"},
         "columns": {"campaign": {"indexes": ["inverted", "forward"]},
                     "ts": {"indexes": ["range", "sorted"]},
                     "user_id": {"indexes": ["bloom"]}},
         "map-keys": {"labels": {"auto": true, "min-share": 0.05}, "tags": {"auto": true}},
         "replication": 3,
         "refresh-interval": "PT5M"}
        """;
    TableConfig fromYaml =
        ConfigLoader.loadTable(Files.writeString(directory.resolve("t.yml"), yaml));
    TableConfig fromJson =
        ConfigLoader.loadTable(Files.writeString(directory.resolve("t.json"), json));
    assertThat(fromYaml).isEqualTo(fromJson);
    assertThat(fromYaml.timeColumn()).isEmpty();
    assertThat(fromYaml.column("campaign").orElseThrow().has(IndexKind.FORWARD)).isTrue();
    assertThat(fromYaml.column("missing")).isEmpty();
    assertThat(fromYaml.mapKeys())
        .containsExactly(
            Map.entry("labels", new MapKeySelection.Auto(0.05)),
            Map.entry("tags", new MapKeySelection.Auto(MapKeySelection.DEFAULT_MIN_SHARE)));
    assertThat(fromYaml.replication()).isEqualTo(3);
    assertThat(fromYaml.refreshInterval()).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void defaultsCatalogAndOptionalSections() {
    TableConfig config = parse("table: {namespace: obs, name: metrics}\n");
    assertThat(config.identity().catalog()).isEqualTo(TableIdentity.DEFAULT_CATALOG);
    assertThat(config.columns()).isEmpty();
    assertThat(config.mapKeys()).isEmpty();
    assertThat(config.replication()).isEqualTo(TableConfig.DEFAULT_REPLICATION);
    assertThat(config.refreshInterval()).isEqualTo(TableConfig.DEFAULT_REFRESH_INTERVAL);
    assertThat(config.dictionaryPages()).isEqualTo(DictionaryPagesConfig.DEFAULT);
    assertThat(config.dictionaryPages().columns()).isEmpty();
  }

  @Test
  void readsDictionaryPageBudgetAndColumns() {
    TableConfig config =
        parse(
            """
            table: {namespace: obs, name: metrics}
            dictionary-pages: {max-size: 2MiB, max-share: 0.1, columns: [sum_rollup, latest_rollup]}
            """);
    assertThat(config.dictionaryPages())
        .isEqualTo(
            new DictionaryPagesConfig(
                DataSize.of(2, DataSize.Unit.MEBIBYTE),
                0.1,
                Optional.of(List.of("sum_rollup", "latest_rollup"))));
  }

  @Test
  void reportsBadDictionaryPageBudget() {
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        dictionary-pages: {max-size: lots, max-pages: 3}
        """,
        "Cannot use dictionary-pages.max-size: \"lots\" (expected a size such as 512MB or 2GiB)",
        "Unknown key dictionary-pages.max-pages (known keys here: dictionary-pages.max-size,"
            + " dictionary-pages.max-share, dictionary-pages.columns)");
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        dictionary-pages: {max-share: 0, columns: []}
        """,
        "Cannot use dictionary-pages.max-share: 0 (expected a number above 0.0 and at most 1.0)",
        "Cannot use dictionary-pages.columns: [] (expected the columns whose dictionary pages the"
            + " segments may keep, such as [sum_rollup, latest_rollup] (a sequence such as [a, b]))");
  }

  @Test
  void readsStarTrees() {
    TableConfig config =
        parse(
            """
            table: {namespace: obs, name: metrics}
            star-trees:
              - dimensions: [metric, "dimensions['service']", "dateTrunc('minute', ts)"]
                functions: ["COUNT(*)", "sum(x)", "AVG(y)", "SUM(x)", "distinctCountHll(host)"]
                skip-star-node-dimensions: [metric]
              - dimensions: [org_id]
                functions: ["MAX(x)"]
                max-leaf-records: 5
                min-rows-per-record: 3
            """);
    assertThat(config.starTrees()).hasSize(2);
    StarTreeConfig first = config.starTrees().get(0);
    assertThat(first.dimensions())
        .containsExactly(
            new StarTreeDimensionConfig.Column("metric"),
            new StarTreeDimensionConfig.MapKey("dimensions", "service"),
            new StarTreeDimensionConfig.TimeBucket(StarTreeDimensionConfig.TimeUnit.MINUTE, "ts"));
    assertThat(first.functions())
        .extracting(StarTreeFunction::text)
        .containsExactly("COUNT(*)", "SUM(x)", "AVG(y)", "DISTINCTCOUNTHLL(host)");
    assertThat(first.maxLeafRecords()).isEqualTo(StarTreeConfig.DEFAULT_MAX_LEAF_RECORDS);
    assertThat(first.skipStarNodeDimensions()).containsExactly("metric");
    assertThat(first.minRowsPerRecord()).isEqualTo(StarTreeConfig.DEFAULT_MIN_ROWS_PER_RECORD);
    assertThat(config.starTrees().get(1).maxLeafRecords()).isEqualTo(5);
    assertThat(config.starTrees().get(1).minRowsPerRecord()).isEqualTo(3);
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(ConfigLoader.parseTable(text, format, "written")).as(text).isEqualTo(config);
    }
  }

  @Test
  void reportsBadStarTrees() {
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        star-trees:
          - dimensions: [metric, "dateTrunc('week', ts)", metric]
            functions: ["COUNT(*)", "MEDIAN(x)", "DISTINCTCOUNTHLL(*)", "SUM(*)"]
            max-leaf-records: 0
            min-rows-per-record: 0
            skip-star-node-dimensions: [node]
          - functions: "COUNT(*)"
          - 3
        """,
        "Cannot use star-trees[2]: 3 (expected a list of sections such as [{dimensions: [metric,"
            + " \"dimensions['service']\"], functions: [\"COUNT(*)\", \"SUM(sum_rollup)\"]}])",
        "Cannot use star-trees[0].dimensions: [\"metric\",\"dateTrunc('week', ts)\",\"metric\"]"
            + " (dateTrunc('week', ts) is not a dimension (use a column name, map['key'] or"
            + " dateTrunc('unit', column) with unit second, minute, hour or day))",
        "Cannot use star-trees[0].dimensions: [\"metric\",\"dateTrunc('week', ts)\",\"metric\"]"
            + " (metric is repeated)",
        "Cannot use star-trees[0].functions:"
            + " [\"COUNT(*)\",\"MEDIAN(x)\",\"DISTINCTCOUNTHLL(*)\",\"SUM(*)\"] (MEDIAN(x) is not"
            + " a function-column pair (use COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x), AVG(x),"
            + " DISTINCTCOUNTHLL(x)))",
        "Cannot use star-trees[0].functions:"
            + " [\"COUNT(*)\",\"MEDIAN(x)\",\"DISTINCTCOUNTHLL(*)\",\"SUM(*)\"]"
            + " (DISTINCTCOUNTHLL(*) is not a function-column pair (use COUNT(*), COUNT(x), SUM(x),"
            + " MIN(x), MAX(x), AVG(x), DISTINCTCOUNTHLL(x)))",
        "Cannot use star-trees[0].functions:"
            + " [\"COUNT(*)\",\"MEDIAN(x)\",\"DISTINCTCOUNTHLL(*)\",\"SUM(*)\"] (SUM(*) is not a"
            + " function-column pair (use COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x), AVG(x),"
            + " DISTINCTCOUNTHLL(x)))",
        "Cannot use star-trees[0].max-leaf-records: 0 (expected an integer from 1 to 2147483647)",
        "Cannot use star-trees[0].min-rows-per-record: 0 (expected an integer from 1 to"
            + " 2147483647)",
        "Cannot use star-trees[0].skip-star-node-dimensions: [\"node\"] (node is not one of the"
            + " tree's dimensions (metric))",
        "Missing key star-trees[1].dimensions (the dimensions in split order: columns, map keys"
            + " such as dimensions['service'] or time buckets such as dateTrunc('minute',"
            + " logical_timestamp))",
        "Cannot use star-trees[1].functions: \"COUNT(*)\" (expected a list of functions (a"
            + " sequence such as [a, b]))");
  }

  @Test
  void reportsMissingIdentity() {
    assertViolations(
        "columns: {metric: {indexes: [inverted]}}\n",
        "Missing key table (the Iceberg table: table.namespace and table.name, such as obs and"
            + " metrics)");
    assertViolations(
        "table: {catalog: lake}\n",
        "Missing key table.namespace (the table's Iceberg namespace, such as obs)",
        "Missing key table.name (the table's name within its namespace, such as metrics)");
    assertViolations(
        "table: obs.metrics\n",
        "Cannot use table: \"obs.metrics\" (expected a section of keys, not a single value)");
  }

  @Test
  void reportsBadIndexes() {
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        columns:
          metric: {indexes: [inverted, fulltext]}
          org_id: {indexes: [inverted, inverted]}
          resolution: {indexes: []}
          host: {}
          region: [inverted]
          node: {index: [bloom]}
        """,
        "Cannot use columns.region: [\"inverted\"] (expected a section with indexes, such as"
            + " {indexes: [inverted]})",
        "Cannot use columns.metric.indexes: [\"inverted\",\"fulltext\"] (unknown fulltext; allowed:"
            + " inverted, range, sorted, bloom, forward)",
        "Cannot use columns.org_id.indexes: [\"inverted\",\"inverted\"] (inverted is repeated)",
        "Cannot use columns.resolution.indexes: [] (expected a list of inverted, range, sorted,"
            + " bloom, forward)",
        "Missing key columns.host.indexes (the indexes to build: inverted, range, sorted, bloom or"
            + " forward)",
        "Missing key columns.node.indexes (the indexes to build: inverted, range, sorted, bloom or"
            + " forward)",
        "Unknown key columns.node.index (did you mean columns.node.indexes?)");
  }

  @Test
  void reportsBadMapKeySelections() {
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        map-keys:
          both: {keys: [node], auto: true}
          neither: {}
          share-without-auto: {keys: [node], min-share: 0.5}
          share-too-large: {auto: true, min-share: 1.5}
          share-zero: {auto: true, min-share: 0}
          auto-false: {auto: false}
          repeated: {keys: [node, node]}
          empty: {keys: []}
        """,
        "Cannot use map-keys.both: both keys and auto: true (use exactly one: keys: [node, service]"
            + " or auto: true)",
        "Cannot use map-keys.neither: neither keys nor auto is set (use exactly one: keys: [node,"
            + " service] or auto: true)",
        "Cannot use map-keys.share-without-auto.min-share: 0.5 (only with auto: true)",
        "Cannot use map-keys.share-too-large.min-share: 1.5 (expected a number above 0.0 and at"
            + " most 1.0)",
        "Cannot use map-keys.share-zero.min-share: 0 (expected a number above 0.0 and at most"
            + " 1.0)",
        "Cannot use map-keys.auto-false.auto: false (auto: false needs keys: [...] instead; use"
            + " exactly one of keys or auto: true)",
        "Cannot use map-keys.repeated.keys: [\"node\",\"node\"] (node is repeated)",
        "Cannot use map-keys.empty.keys: [] (expected a list of map keys such as [node,"
            + " service])");
  }

  @Test
  void reportsBadScalarsAndUnknownKeys() {
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        time-column: ""
        replication: 0
        refresh-interval: 60
        mapKeys: {dimensions: {keys: [node]}}
        """,
        "Cannot use time-column: \"\" (expected a column name)",
        "Cannot use replication: 0 (expected an integer from 1 to 100)",
        "Cannot use refresh-interval: 60 (expected a duration such as 250ms, 30s, 5m or 1h)",
        "Unknown key mapKeys (did you mean map-keys?)");
    assertViolations(
        """
        table: {namespace: obs, name: metrics}
        refresh-interval: 500ms
        """,
        "Cannot use refresh-interval: \"500ms\" (expected at least 1s)");
  }

  @Test
  void reportsSyntaxErrors() {
    ConfigException e =
        catchThrowableOfType(
            ConfigException.class,
            () ->
                ConfigLoader.parseTable(
                    "table: {namespace: obs, name: metrics\ncolumns: x\n",
                    ConfigFormat.YAML,
                    "metrics.yaml"));
    assertThat(e.getMessage())
        .startsWith("metrics.yaml: Cannot parse YAML at line ")
        .endsWith("(fix the syntax there)")
        .doesNotContain("\n");
  }

  private static TableConfig parse(String yaml) {
    return ConfigLoader.parseTable(yaml, ConfigFormat.YAML, "table.yaml");
  }

  private static void assertViolations(String yaml, String... expected) {
    ConfigException e = catchThrowableOfType(ConfigException.class, () -> parse(yaml));
    assertThat(e).as("expected a ConfigException").isNotNull();
    assertThat(e.violations()).extracting(Violation::message).containsExactly(expected);
    assertThat(e.getMessage().lines().toList())
        .isEqualTo(List.of(expected).stream().map(message -> "table.yaml: " + message).toList());
  }
}
