package io.shelfmark.testing.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.cluster.StaticCredentials;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.StorageType;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture checks itself: after every step of a scripted history, Iceberg's own generic reader
 * and DuckDB over the live files (with the fixture's deletes and column mapping) return the same
 * rows, and as many as the fixture says are live.
 */
class TestIcebergScenario {
  @TempDir static Path directory;
  private static ObjectStore localStore;
  private static Catalog localCatalog;
  private static DuckDbOracle oracle;

  @BeforeAll
  static void start() {
    localStore = ObjectStores.local();
    localCatalog = Catalogs.open(jdbc("local", directory.resolve("warehouse")), localStore);
    ((SupportsNamespaces) localCatalog).createNamespace(Namespace.of("t"));
    oracle = DuckDbOracle.open();
  }

  @AfterAll
  static void stop() throws IOException {
    oracle.close();
    ((Closeable) localCatalog).close();
    localStore.close();
  }

  @Test
  void formatV2HistoryWithPositionAndEqualityDeletesAndEvolution() {
    IcebergScenario scenario =
        IcebergScenario.create(
            localCatalog,
            TableIdentifier.of("t", "v2"),
            IcebergScenario.SCHEMA,
            IcebergScenario.spec(IcebergScenario.SCHEMA),
            2,
            IcebergScenario.localFiles(),
            7);
    check(scenario);
    check(scenario, scenario.append(60));
    check(scenario, scenario.deleteRows(3, 3));
    check(scenario, scenario.overwrite(1));
    check(scenario, scenario.append(30));
    check(scenario, scenario.addColumn("note", Types.StringType.get()));
    check(scenario, scenario.append(30));
    check(scenario, scenario.renameColumn("amount", "total"));
    check(scenario, scenario.append(20));
    check(scenario, scenario.dropColumn("flag"));
    check(scenario, scenario.deleteRows(2, 2));
    check(
        scenario,
        scenario.updateSpec(
            "partition by bucket[4](id) and day(event_time)",
            spec ->
                spec.removeField("category")
                    .addField(Expressions.bucket("id", 4))
                    .addField(Expressions.day("event_time"))));
    check(scenario, scenario.append(40));
    ScenarioState afterEquality = scenario.deleteIds(3, 2);
    check(scenario, afterEquality);
    assertThat(afterEquality.hasEqualityDeletes()).isTrue();
    check(scenario, scenario.deleteRows(2, 2));
    check(scenario, scenario.overwrite(2));

    ScenarioState last = scenario.state();
    // A position-delete file may name several data files: some file of the history had deletes
    // from two different steps, and the renamed column is read under its old name somewhere.
    assertThat(last.files()).anyMatch(file -> file.columnNames().containsValue("amount"));
    assertThat(last.files()).anyMatch(file -> file.columnNames().containsValue("total"));
    assertThat(last.files()).anyMatch(file -> !file.columnNames().containsKey(9));
    assertThat(last.files()).anyMatch(file -> file.specId() == 0);
    assertThat(last.files()).anyMatch(file -> file.specId() == 1);
    assertThat(last.positionDeletes()).isNotEmpty();
    assertThat(last.schema().findField("flag")).isNull();
    assertThat(scenario.history()).hasSize(16);
  }

  @Test
  void formatV3HistoryWithDeletionVectorsOnTheEmbeddedS3Server() throws IOException {
    try (EmbeddedS3Server server =
        EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build()) {
      server.start();
      server.createBucket("lake");
      try (ObjectStore store = ObjectStores.open(storage(server))) {
        Catalog catalog = Catalogs.open(jdbc("lake", null), store);
        try (Closeable closing = (Closeable) catalog) {
          ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
          IcebergScenario scenario =
              IcebergScenario.create(
                  catalog,
                  TableIdentifier.of("t", "v3"),
                  IcebergScenario.SCHEMA,
                  IcebergScenario.spec(IcebergScenario.SCHEMA),
                  3,
                  IcebergScenario.s3Files(server.baseDirectory()),
                  11);
          check(scenario, scenario.append(50));
          ScenarioState first = scenario.deleteRows(2, 3);
          check(scenario, first);
          // Every file gets all its deletes again in one new vector: delete more of the same files.
          ScenarioState second = scenario.deleteRows(6, 2);
          check(scenario, second);
          check(scenario, scenario.renameColumn("category", "kind"));
          check(scenario, scenario.append(20));
          check(scenario, scenario.deleteIds(1, 2));
          check(scenario, scenario.overwrite(1));
          assertThat(Files.isRegularFile(scenario.state().files().getFirst().localPath())).isTrue();
          assertThat(scenario.state().files().getFirst().location()).startsWith("s3://lake/");
        }
      }
    }
  }

  @Test
  void refusesUnsupportedFormatVersions() {
    assertThatThrownBy(
            () ->
                IcebergScenario.create(
                    localCatalog,
                    TableIdentifier.of("t", "v1"),
                    IcebergScenario.SCHEMA,
                    IcebergScenario.spec(IcebergScenario.SCHEMA),
                    1,
                    IcebergScenario.localFiles(),
                    1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot create scenario table t.v1 with format version 1 (use 2 or 3)");
  }

  private static void check(IcebergScenario scenario) {
    check(scenario, scenario.state());
  }

  /** Iceberg's reader and DuckDB over the fixture's description agree, step by step. */
  private static void check(IcebergScenario scenario, ScenarioState state) {
    Table table = scenario.table();
    table.refresh();
    List<String> columns = new ArrayList<>();
    for (Types.NestedField column : table.schema().columns()) {
      columns.add(column.name());
    }
    List<List<Object>> rows = new ArrayList<>();
    if (state.snapshotId().isPresent()) {
      try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
        for (Record record : records) {
          List<Object> row = new ArrayList<>();
          for (int i = 0; i < columns.size(); i++) {
            row.add(record.get(i));
          }
          rows.add(row);
        }
      } catch (IOException e) {
        throw new AssertionError("Cannot read " + table.name() + " after " + state.step(), e);
      }
    }
    QueryResult iceberg = QueryResult.normalized(columns, rows);
    state.registerIn(oracle, "scenario", "rows");
    QueryResult duckDb = oracle.query("SELECT * FROM scenario.rows");
    assertThat(iceberg.rowCount())
        .as("rows after %s", state.step())
        .isEqualTo(state.liveRowCount());
    ResultComparison.assertEquivalent(iceberg, duckDb, false, ResultComparison.DEFAULT_TOLERANCE);
  }

  private static CatalogConfig jdbc(String name, Path warehouse) {
    return CatalogConfig.builder()
        .type(CatalogType.JDBC)
        .name(name)
        .uri("jdbc:sqlite:" + directory.resolve(name + ".db"))
        .warehouse(warehouse == null ? "s3://lake/warehouse" : warehouse.toUri().toString())
        .build();
  }

  private static StorageConfig storage(EmbeddedS3Server server) {
    return StorageConfig.builder()
        .type(StorageType.S3)
        .endpoint(server.endpoint())
        .region(EmbeddedS3Server.REGION)
        .pathStyleAccess(true)
        .credentials(new StaticCredentials(server.accessKey(), server.secretKey()))
        .build();
  }
}
