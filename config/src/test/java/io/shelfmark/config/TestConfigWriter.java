package io.shelfmark.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TestConfigWriter {
  @Test
  void bundledBenchmarkTableRoundTrips() {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(ConfigLoader.parseTable(text, format, "written")).as(text).isEqualTo(config);
    }
  }

  @Test
  void dictionaryPageBudgetRoundTripsWhenSet() {
    TableConfig config =
        TableConfig.builder(new TableIdentity("shelfmark", "obs", "metrics"))
            .dictionaryPages(
                new DictionaryPagesConfig(
                    DataSize.of(3, DataSize.Unit.MEBIBYTE),
                    0.05,
                    Optional.of(List.of("sum_rollup"))))
            .build();
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(text).contains("3MiB");
      TableConfig read = ConfigLoader.parseTable(text, format, "written");
      assertThat(read).as(text).isEqualTo(config);
      assertThat(read.dictionaryPages().maxSize().bytes()).isEqualTo(3 << 20);
      assertThat(read.dictionaryPages().maxShare()).isEqualTo(0.05);
      assertThat(read.dictionaryPages().columns()).contains(List.of("sum_rollup"));
    }
  }

  @Test
  void writesTableInTheDocumentedShape() {
    TableConfig config = ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
    assertThat(ConfigWriter.write(config, ConfigFormat.YAML))
        .isEqualTo(
            """
            table:
              catalog: shelfmark
              namespace: obs
              name: metrics
            time-column: logical_timestamp
            columns:
              metric:
                indexes:
                - inverted
              org_id:
                indexes:
                - inverted
              resolution:
                indexes:
                - inverted
              logical_timestamp:
                indexes:
                - range
            map-keys:
              dimensions:
                keys:
                - node
                - service
            replication: 2
            refresh-interval: 1m
            star-trees:
            - dimensions:
              - org_id
              - metric
              - resolution
              - "dateTrunc('second', logical_timestamp)"
              functions:
              - COUNT(*)
              - SUM(sum_rollup)
              - AVG(latest_rollup)
              max-leaf-records: 10000
              min-rows-per-record: 2
              skip-star-node-dimensions:
              - org_id
            """);
  }

  @Test
  void builtTableRoundTrips() {
    TableConfig config =
        TableConfig.builder(new TableIdentity("lake", "a.b", "events"))
            .timeColumn("ts")
            .column("ts", ColumnConfig.of(IndexKind.RANGE, IndexKind.SORTED))
            .column("kind", ColumnConfig.of(IndexKind.FORWARD, IndexKind.INVERTED, IndexKind.BLOOM))
            .mapKeys("labels", new MapKeySelection.Auto(0.125))
            .mapKeys("attributes", new MapKeySelection.Listed(List.of("true", "8099", "a b")))
            .replication(2)
            .refreshInterval(Duration.ofMillis(1500))
            .build();
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(ConfigLoader.parseTable(text, format, "written")).as(text).isEqualTo(config);
    }
  }

  @Test
  void fullClusterConfigRoundTrips() {
    ClusterConfig config =
        ConfigLoader.withoutEnvironment()
            .parseCluster(TestClusterConfigLoader.FULL_YAML, ConfigFormat.YAML, "cluster.yaml");
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(ConfigLoader.withoutEnvironment().parseCluster(text, format, "written"))
          .as(text)
          .isEqualTo(config);
    }
  }

  @Test
  void builtClusterConfigRoundTrips() {
    ClusterConfig config =
        ClusterConfig.builder()
            .clusterName("quickstart")
            .roles(Role.CONTROLLER, Role.INDEX_BUILDER)
            .storage(StorageConfig.local(Path.of("/tmp/lake")))
            .catalog(
                CatalogConfig.builder()
                    .type(CatalogType.JDBC)
                    .uri("jdbc:sqlite:/tmp/lake/catalog.db")
                    .warehouse("file:/tmp/lake/warehouse")
                    .property("jdbc.password", "hunter2")
                    .build())
            .segmentStore("/tmp/lake/segments")
            .cache(
                CacheConfig.builder()
                    .memoryMaxSize(DataSize.ofBytes(12345))
                    .diskMaxSize(DataSize.ofBytes(0))
                    .build(Path.of("/tmp/data")))
            .dataDir(Path.of("relative/data"))
            .segmentMode(SegmentMode.REMOTE)
            .build();
    for (ConfigFormat format : ConfigFormat.values()) {
      String text = ConfigWriter.write(config, format);
      assertThat(ConfigLoader.withoutEnvironment().parseCluster(text, format, "written"))
          .as(text)
          .isEqualTo(config);
    }
  }
}
