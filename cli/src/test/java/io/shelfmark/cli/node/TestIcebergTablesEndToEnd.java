package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.SegmentMode;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.iceberg.ScenarioState;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iceberg tables with a history — appends, overwrites, position deletes (v2), deletion vectors
 * (v3), added, renamed and dropped columns, partition evolution — served by every role in one JVM
 * over the embedded S3 lake, and queried over HTTP after each step: every answer equals DuckDB's
 * over the snapshot's live files with the deletes applied, equality deletes included.
 */
class TestIcebergTablesEndToEnd {
  @TempDir Path directory;
  private LocalLake lake;
  private AllInOne node;
  private DuckDbOracle duckDb;
  private BrokerClient broker;

  @BeforeEach
  void start() throws Exception {
    lake = LocalLake.start(directory.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("evo"));
    }
    Path nodeDir = directory.resolve("node");
    node =
        AllInOne.start(
            ClusterConfig.builder()
                .storage(lake.storageConfig())
                .catalog(lake.catalogConfig())
                .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments/")
                .dataDir(nodeDir)
                .segmentMode(SegmentMode.REMOTE)
                .cache(
                    CacheConfig.builder()
                        .memoryMaxSize(DataSize.of(64, DataSize.Unit.MEBIBYTE))
                        .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
                        .build(nodeDir))
                .build(),
            Map.of(LocalLake.CATALOG_NAME, lake.catalog()),
            lake.store(),
            0);
    duckDb = DuckDbOracle.open();
    broker = new BrokerClient(node.url());
  }

  @AfterEach
  void stop() throws Exception {
    if (duckDb != null) {
      duckDb.close();
    }
    if (node != null) {
      node.close();
    }
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void formatV2HistoryWithPositionAndEqualityDeletesAnswersLikeDuckDb() throws Exception {
    IcebergScenario scenario = scenario("events_v2", 2);
    scenario.append(80);
    onboard("events_v2");
    check(scenario, "events_v2");

    scenario.append(40);
    check(scenario, "events_v2");
    scenario.deleteRows(2, 4);
    check(scenario, "events_v2");
    scenario.overwrite(1);
    check(scenario, "events_v2");
    scenario.addColumn("note", Types.StringType.get());
    scenario.append(30);
    check(scenario, "events_v2");
    scenario.renameColumn("amount", "total");
    scenario.append(30);
    check(scenario, "events_v2");
    scenario.dropColumn("flag");
    scenario.append(20);
    check(scenario, "events_v2");
    scenario.updateSpec(
        "add bucket(4, id)",
        spec -> spec.addField(org.apache.iceberg.expressions.Expressions.bucket("id", 4)));
    scenario.append(30);
    check(scenario, "events_v2");

    scenario.deleteIds(2, 3);
    check(scenario, "events_v2");
    scenario.append(20);
    check(scenario, "events_v2");
  }

  @Test
  void formatV3DeletionVectorsAnswerLikeDuckDb() throws Exception {
    IcebergScenario scenario = scenario("events_v3", 3);
    scenario.append(100);
    onboard("events_v3");
    check(scenario, "events_v3");
    scenario.deleteRows(3, 5);
    check(scenario, "events_v3");
    scenario.deleteRows(2, 3);
    check(scenario, "events_v3");
  }

  @Test
  void hourAndTruncateTransformsPruneAndAnswerLikeDuckDb() throws Exception {
    IcebergScenario scenario =
        IcebergScenario.create(
            lake.catalog(),
            TableIdentifier.of("evo", "events_hourly"),
            IcebergScenario.SCHEMA,
            PartitionSpec.builderFor(IcebergScenario.SCHEMA)
                .hour("event_time")
                .truncate("category", 1)
                .build(),
            2,
            IcebergScenario.s3Files(lake.s3().baseDirectory()),
            7);
    scenario.append(120);
    onboard("events_hourly");
    check(scenario, "events_hourly");
    scenario.updateSpec(
        "day instead of hour",
        spec ->
            spec.removeField(org.apache.iceberg.expressions.Expressions.hour("event_time"))
                .addField(org.apache.iceberg.expressions.Expressions.day("event_time")));
    scenario.append(60);
    check(scenario, "events_hourly");
  }

  /**
   * Files another writer made (DuckDB): no Iceberg field ids (columns found by name, as the table's
   * name mapping says), a unique string column stored without a dictionary, added to an Iceberg
   * table by path.
   */
  @Test
  void filesFromAnotherWriterAnswerLikeDuckDb() throws Exception {
    Schema schema =
        new Schema(
            Types.NestedField.optional(1, "id", Types.LongType.get()),
            Types.NestedField.optional(2, "label", Types.StringType.get()),
            Types.NestedField.optional(3, "grp", Types.StringType.get()),
            Types.NestedField.optional(4, "amount", Types.DoubleType.get()));
    org.apache.iceberg.Table table =
        lake.catalog()
            .createTable(
                TableIdentifier.of("evo", "ext_files"),
                schema,
                PartitionSpec.unpartitioned(),
                Map.of(
                    "format-version",
                    "2",
                    org.apache.iceberg.TableProperties.DEFAULT_NAME_MAPPING,
                    org.apache.iceberg.mapping.NameMappingParser.toJson(
                        org.apache.iceberg.mapping.MappingUtil.create(schema))));
    List<Path> files = new ArrayList<>();
    var append = table.newAppend();
    for (int part = 0; part < 3; part++) {
      String key = "warehouse/evo/ext_files/data/duckdb-" + part + ".parquet";
      Path local = lake.s3().baseDirectory().resolve(LocalLake.BUCKET).resolve(key);
      java.nio.file.Files.createDirectories(local.getParent());
      duckDb.execute(
          "COPY (SELECT (r + "
              + part * 1000
              + ")::BIGINT AS id, 'row-' || (r + "
              + part * 1000
              + ")::VARCHAR AS label,"
              + " CASE WHEN r % 7 = 0 THEN NULL ELSE 'g' || (r % 5)::VARCHAR END AS grp,"
              + " CASE WHEN r % 9 = 0 THEN NULL ELSE ((r % 113) * 0.5)::DOUBLE END AS amount"
              + " FROM range(0, 1000) t(r)) TO '"
              + local
              + "' (FORMAT parquet, ROW_GROUP_SIZE 300)");
      files.add(local);
      append.appendFile(
          org.apache.iceberg.DataFiles.builder(PartitionSpec.unpartitioned())
              .withPath("s3://" + LocalLake.BUCKET + "/" + key)
              .withFormat(org.apache.iceberg.FileFormat.PARQUET)
              .withFileSizeInBytes(java.nio.file.Files.size(local))
              .withRecordCount(1000)
              .build());
    }
    append.commit();
    duckDb.registerTable("evo.ext_files", files);
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "evo", "ext_files"))
                .column("grp", ColumnConfig.of(IndexKind.INVERTED, IndexKind.FORWARD))
                .column("id", ColumnConfig.of(IndexKind.RANGE))
                .column("label", ColumnConfig.of(IndexKind.BLOOM))
                .build());
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> node.registry().table("evo.ext_files").orElseThrow().segmentsPending() == 0);
    ServedTable served = node.registry().table("evo.ext_files").orElseThrow();
    assertThat(served.segmentsFailed()).as(served.failures().toString()).isZero();
    for (String sql :
        List.of(
            "SELECT COUNT(*) FROM evo.ext_files",
            "SELECT grp, COUNT(*), SUM(amount) FROM evo.ext_files GROUP BY grp ORDER BY grp",
            "SELECT id, label, amount FROM evo.ext_files WHERE label = 'row-1234' LIMIT 10",
            "SELECT COUNT(*), MIN(label), MAX(amount) FROM evo.ext_files"
                + " WHERE id BETWEEN 500 AND 2100 AND label LIKE 'row-1%'",
            "SELECT label, amount FROM evo.ext_files WHERE grp IN ('g1', 'g3') AND amount > 50"
                + " ORDER BY amount DESC, label LIMIT 12")) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      assertThat(response.path("exceptions")).as(sql).isEmpty();
      ResultComparison.assertEquivalent(
          duckDb.query(sql), resultOf(response), sql.contains("ORDER BY"), 1e-9);
    }
  }

  private IcebergScenario scenario(String name, int formatVersion) {
    return IcebergScenario.create(
        lake.catalog(),
        TableIdentifier.of("evo", name),
        IcebergScenario.SCHEMA,
        IcebergScenario.spec(IcebergScenario.SCHEMA),
        formatVersion,
        IcebergScenario.s3Files(lake.s3().baseDirectory()),
        42);
  }

  private void onboard(String name) throws Exception {
    node.registry()
        .onboard(
            TableConfig.builder(new TableIdentity(LocalLake.CATALOG_NAME, "evo", name))
                .column("category", ColumnConfig.of(IndexKind.INVERTED))
                .column("id", ColumnConfig.of(IndexKind.RANGE))
                .column("quantity", ColumnConfig.of(IndexKind.INVERTED))
                .build());
  }

  /** Moves the served table to the scenario's snapshot and waits until every file is indexed. */
  private void refreshTo(IcebergScenario scenario, String name) throws Exception {
    long snapshot = scenario.table().currentSnapshot().snapshotId();
    node.registry().refresh("evo." + name);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () -> {
              ServedTable served = node.registry().table("evo." + name).orElseThrow();
              return served.snapshotId() == snapshot && served.segmentsPending() == 0;
            });
  }

  private void check(IcebergScenario scenario, String name) throws Exception {
    scenario.table().refresh();
    refreshTo(scenario, name);
    ScenarioState state = scenario.state();
    state.registerIn(duckDb, "evo", name);
    ServedTable served = node.registry().table("evo." + name).orElseThrow();
    assertThat(served.segmentsFailed()).as(served.failures().toString()).isZero();
    for (String sql : queries(scenario.table().schema(), "evo." + name)) {
      JsonNode response = broker.query(sql, Optional.of(Duration.ofSeconds(30)));
      assertThat(response.path("exceptions")).as(sql + " after " + state).isEmpty();
      QueryResult expected = duckDb.query(sql);
      boolean ordered = sql.contains("ORDER BY");
      try {
        ResultComparison.assertEquivalent(expected, resultOf(response), ordered, 1e-9);
      } catch (AssertionError e) {
        throw new AssertionError(sql + " after " + state + ": " + e.getMessage(), e);
      }
      assertThat(response.path("snapshotId").asLong())
          .isEqualTo(scenario.table().currentSnapshot().snapshotId());
    }
  }

  /** Queries over whichever columns the current schema has. */
  private static List<String> queries(Schema schema, String table) {
    List<String> queries = new ArrayList<>();
    queries.add("SELECT COUNT(*) FROM " + table);
    queries.add(
        "SELECT COUNT(*), MIN(id), MAX(id), SUM(quantity) FROM "
            + table
            + " WHERE id BETWEEN 10 AND 120");
    queries.add(
        "SELECT category, COUNT(*), SUM(quantity), COUNT(quantity) FROM "
            + table
            + " GROUP BY category ORDER BY category NULLS FIRST");
    queries.add(
        "SELECT quantity, COUNT(*) FROM "
            + table
            + " WHERE quantity IN (1, 2, 3) OR quantity IS NULL GROUP BY quantity"
            + " ORDER BY quantity NULLS LAST");
    queries.add(
        "SELECT id, category, quantity FROM "
            + table
            + " WHERE id < 60 AND category <> 'c1' ORDER BY id LIMIT 15");
    for (String amount : List.of("amount", "total")) {
      if (schema.findField(amount) != null) {
        queries.add(
            "SELECT COUNT("
                + amount
                + "), SUM("
                + amount
                + "), MAX("
                + amount
                + ") FROM "
                + table
                + " WHERE quantity >= 3");
      }
    }
    if (schema.findField("note") != null) {
      queries.add("SELECT COUNT(note), COUNT(*) FROM " + table + " WHERE note IS NULL OR id > 100");
    }
    if (schema.findField("flag") != null) {
      queries.add(
          "SELECT flag, COUNT(*) FROM " + table + " GROUP BY flag ORDER BY flag NULLS FIRST");
    }
    queries.add("SELECT COUNT(event_time), COUNT(DISTINCT event_day), SUM(price) FROM " + table);
    return queries;
  }

  private static QueryResult resultOf(JsonNode response) {
    JsonNode schema = response.path("resultTable").path("dataSchema");
    List<String> columns = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (JsonNode name : schema.path("columnNames")) {
      columns.add(name.asText());
    }
    for (JsonNode type : schema.path("columnDataTypes")) {
      types.add(type.asText());
    }
    List<List<Object>> rows = new ArrayList<>();
    for (JsonNode row : response.path("resultTable").path("rows")) {
      List<Object> values = new ArrayList<>();
      for (int c = 0; c < columns.size(); c++) {
        JsonNode value = row.get(c);
        values.add(
            value.isNull()
                ? null
                : switch (types.get(c)) {
                  case "INT", "LONG" -> value.asLong();
                  case "FLOAT", "DOUBLE" -> value.asDouble();
                  case "BIG_DECIMAL" -> new BigDecimal(value.asText());
                  case "BOOLEAN" -> value.asBoolean();
                  default -> value.asText();
                });
      }
      rows.add(values);
    }
    return QueryResult.normalized(columns, rows);
  }
}
