package io.shelfmark.broker.prune;

import static io.shelfmark.broker.prune.PruneResult.ALL_MATCH;
import static io.shelfmark.broker.prune.PruneResult.CANNOT_MATCH;
import static io.shelfmark.broker.prune.PruneResult.MIGHT_MATCH;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.metadata.SegmentStatistics;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.iceberg.IcebergScenario;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row-group pruning on Parquet footers across schema evolution (columns found by field id, so a
 * renamed column keeps its statistics and a column added later is NULL in older files) and on a
 * segment's row-group statistics.
 */
class TestRowGroupPruner {
  @TempDir static Path directory;
  private static ObjectStore store;
  private static Catalog catalog;

  @BeforeAll
  static void start() {
    store = ObjectStores.local();
    catalog =
        Catalogs.open(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .name("row_groups")
                .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                .warehouse(directory.resolve("warehouse").toUri().toString())
                .build(),
            store);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
  }

  @AfterAll
  static void stop() throws IOException {
    ((Closeable) catalog).close();
    store.close();
  }

  @Test
  void footersAcrossRenamesAndAddedColumns() {
    IcebergScenario scenario =
        IcebergScenario.create(
            catalog,
            TableIdentifier.of("t", "evolved"),
            IcebergScenario.SCHEMA,
            PartitionSpec.unpartitioned(),
            2,
            IcebergScenario.localFiles(),
            3);
    scenario.append(100);
    Set<String> old = new HashSet<>();
    scenario.state().files().forEach(file -> old.add(file.location()));
    scenario.renameColumn("quantity", "qty");
    scenario.addColumn("note", Types.StringType.get());
    scenario.append(100);
    Table table = scenario.table();
    Schema schema = table.schema();
    List<DataFileInfo> files = TableSnapshot.current(table).dataFiles();
    assertThat(files).hasSize(2);
    for (DataFileInfo file : files) {
      FileMetaData footer = footer(file);
      boolean before = old.contains(file.path());
      // quantity is -50..49 in every file; the old file calls it quantity, by field id it is qty.
      assertThat(prune("qty > 1000", schema, footer)).containsOnly(CANNOT_MATCH);
      assertThat(prune("qty BETWEEN -50 AND 49", schema, footer)).containsOnly(MIGHT_MATCH);
      assertThat(
              FilePruner.of(TestFilePruner.plan("qty > 1000", schema), schema, table.specs())
                  .prune(file))
          .isEqualTo(CANNOT_MATCH);
      // note did not exist when the old file was written: NULL in all its rows.
      assertThat(prune("note IS NULL", schema, footer))
          .containsOnly(before ? ALL_MATCH : MIGHT_MATCH);
      assertThat(prune("note = 'c1'", schema, footer))
          .containsOnly(before ? CANNOT_MATCH : MIGHT_MATCH);
      // id is the row number: 1..100 in the old file, 101..200 in the new one.
      assertThat(prune("id <= 100", schema, footer))
          .containsOnly(before ? ALL_MATCH : CANNOT_MATCH);
    }
  }

  @Test
  void segmentRowGroupStatistics() {
    Schema schema = TestStatisticsEvaluator.SCHEMA;
    SegmentStatistics.FileStatistics file =
        new SegmentStatistics.FileStatistics(
            Map.of(),
            List.of(
                Map.of("x", longs(100, 0, 9), "m['node']", strings(100, "a", "k")),
                Map.of("x", longs(100, 10, 19), "m['node']", strings(100, "l", "z"))));
    RowGroupPruner pruner =
        RowGroupPruner.of(TestFilePruner.plan("x >= 10 AND m['node'] = 'xyz'", schema), schema);
    assertThat(pruner.prune(file, List.of(100L, 100L))).containsExactly(CANNOT_MATCH, MIGHT_MATCH);
    assertThat(
            RowGroupPruner.of(TestFilePruner.plan("x < 10", schema), schema)
                .prune(file, List.of(100L, 100L)))
        .containsExactly(ALL_MATCH, CANNOT_MATCH);
    assertThat(RowGroupPruner.of(Optional.empty(), schema).prune(file, List.of(100L, 0L)))
        .containsExactly(ALL_MATCH, CANNOT_MATCH);
    assertThatThrownBy(() -> pruner.prune(file, List.of(100L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot prune row groups: the segment has statistics of 2 row groups but the file has 1");
  }

  private static List<PruneResult> prune(String where, Schema schema, FileMetaData footer) {
    RowGroupPruner pruner = RowGroupPruner.of(TestFilePruner.plan(where, schema), schema);
    List<PruneResult> results = pruner.prune(footer);
    assertThat(pruner.errors().count()).isZero();
    return results;
  }

  private static ColumnStatistics longs(long rows, long min, long max) {
    return new ColumnStatistics(
        rows, OptionalLong.of(0), Optional.of(Value.of(min)), Optional.of(Value.of(max)));
  }

  private static ColumnStatistics strings(long rows, String min, String max) {
    return new ColumnStatistics(
        rows, OptionalLong.of(0), Optional.of(Value.of(min)), Optional.of(Value.of(max)));
  }

  private static FileMetaData footer(DataFileInfo file) {
    try {
      byte[] bytes = Files.readAllBytes(Path.of(URI.create(file.path())));
      int length =
          ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
      return Util.readFileMetaData(
          new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    } catch (IOException e) {
      throw new AssertionError("Cannot read the footer of " + file.path(), e);
    }
  }
}
