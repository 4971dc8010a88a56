package io.shelfmark.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.TestingLake;
import io.shelfmark.catalog.TestingTables;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Column statistics of listed data files: decoded by field id, kept across renames. */
class TestColumnBounds {
  @TempDir static Path directory;
  private static TestingLake lake;
  private static Catalog catalog;

  @BeforeAll
  static void start() throws IOException {
    lake = TestingLake.start(directory);
    catalog = Catalogs.open(lake.jdbcCatalog("bounds"), lake.store());
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("obs"));
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      ((Closeable) catalog).close();
    } finally {
      lake.close();
    }
  }

  @Test
  void listedFilesCarryTheManifestBoundsByFieldId() throws IOException {
    Table table =
        catalog.createTable(
            TableIdentifier.of("obs", "bounds"),
            TestingTables.SCHEMA,
            TestingTables.SPEC,
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    DataFile file = TestingTables.writeDataFile(table, 7, 20);
    table.newAppend().appendFile(file).commit();

    DataFileInfo info = TableSnapshot.current(table).dataFiles().getFirst();
    // org_id (1) is 7 in every row; logical_timestamp (3) runs 1000..1019; metric (2) m0..m19.
    ColumnBounds orgId = info.bounds(1).orElseThrow();
    assertThat(orgId.lower()).contains(7L);
    assertThat(orgId.upper()).contains(7L);
    assertThat(orgId.valueCount()).hasValue(20);
    assertThat(orgId.nullCount()).hasValue(0);
    assertThat(info.bounds(3).orElseThrow().lower()).contains(1000L);
    assertThat(info.bounds(3).orElseThrow().upper()).contains(1019L);
    assertThat(info.bounds(2).orElseThrow().lower()).contains("m0");
    assertThat(info.bounds(2).orElseThrow().upper()).contains("m9");
    ColumnBounds sum = info.bounds(4).orElseThrow();
    assertThat(sum.lower()).contains(0.0);
    assertThat(sum.upper()).contains(19.0);
    assertThat(sum.nanCount()).hasValue(0);

    // A rename keeps the field id, so the bounds stay; a dropped column's bounds are left out.
    table.updateSchema().renameColumn("metric", "metric_name").commit();
    table.updateSchema().deleteColumn("sum_rollup").commit();
    DataFileInfo renamed = TableSnapshot.current(table).dataFiles().getFirst();
    assertThat(renamed.bounds(2).orElseThrow().lower()).contains("m0");
    assertThat(renamed.bounds(4)).isEmpty();
    assertThat(renamed.columnBounds().keySet()).containsExactly(1, 2, 3);
  }

  @Test
  void filesDescribedWithoutStatisticsHaveNoBounds() {
    DataFileInfo file =
        new DataFileInfo(
            "s3://b/t/data/f.parquet",
            FileFormat.PARQUET,
            FileContent.DATA,
            100,
            10,
            new FilePartition(0, "", List.of()),
            1,
            1,
            List.of());
    assertThat(file.columnBounds()).isEmpty();
    assertThat(file.bounds(1)).isEmpty();
    assertThat(
            new ColumnBounds(
                    OptionalLong.of(3),
                    OptionalLong.empty(),
                    OptionalLong.empty(),
                    Optional.empty(),
                    Optional.empty())
                .valueCount())
        .hasValue(3);
  }
}
