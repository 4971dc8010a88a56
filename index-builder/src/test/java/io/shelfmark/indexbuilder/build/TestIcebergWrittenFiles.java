package io.shelfmark.indexbuilder.build;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.indexbuilder.testing.DecodedValues;
import io.shelfmark.indexbuilder.testing.RoundTripChecks;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by Iceberg's own Parquet writer into a real catalog: map columns with null maps,
 * empty maps and null values, and a table whose schema evolved after the file was written (a
 * renamed column found by field id, an added column null in old files).
 */
class TestIcebergWrittenFiles {
  private static final IndexService INDEXES = IndexService.installed();
  private static final TableIdentity IDENTITY = new TableIdentity("shelfmark", "db", "events");
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "name", Types.StringType.get()),
          optional(
              3,
              "tags",
              Types.MapType.ofOptional(4, 5, Types.StringType.get(), Types.StringType.get())),
          optional(6, "score", Types.DoubleType.get()));
  private static final int ROWS = 3000;

  @TempDir Path directory;
  private ObjectStore store;
  private Catalog catalog;
  private Table table;
  private ExecutorService io;

  @BeforeEach
  void createTable() throws IOException {
    store = ObjectStores.local();
    io = Executors.newVirtualThreadPerTaskExecutor();
    catalog =
        Catalogs.open(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .name("test")
                .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                .warehouse(directory.resolve("warehouse").toUri().toString())
                .build(),
            store);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("db"));
    table =
        catalog.createTable(
            TableIdentifier.of("db", "events"),
            SCHEMA,
            org.apache.iceberg.PartitionSpec.unpartitioned(),
            Map.of("write.parquet.page-row-limit", "500", "write.format.default", "parquet"));
    table.newAppend().appendFile(writeFile()).commit();
  }

  @AfterEach
  void close() throws IOException {
    io.shutdownNow();
    if (catalog instanceof Closeable closeable) {
      closeable.close();
    }
    store.close();
  }

  private DataFile writeFile() throws IOException {
    DataWriter<Record> writer =
        Parquet.writeData(
                table.io().newOutputFile(table.locationProvider().newDataLocation("f.parquet")))
            .forTable(table)
            .createWriterFunc(GenericParquetWriter::create)
            .build();
    SplittableRandom random = new SplittableRandom(5);
    try (writer) {
      for (int i = 0; i < ROWS; i++) {
        GenericRecord row = GenericRecord.create(table.schema());
        row.setField("id", (long) i);
        row.setField("name", i % 7 == 0 ? null : "name-" + random.nextInt(40));
        row.setField("score", i % 11 == 0 ? null : random.nextDouble() * 10);
        row.setField("tags", tags(i, random));
        writer.write(row);
      }
    }
    return writer.toDataFile();
  }

  /** Null maps, empty maps, null values, absent keys, keys of every frequency. */
  private static Map<String, String> tags(int row, SplittableRandom random) {
    switch (row % 10) {
      case 0 -> {
        return null;
      }
      case 1 -> {
        return Map.of();
      }
      case 2 -> {
        Map<String, String> tags = new HashMap<>();
        tags.put("a", null);
        return tags;
      }
      default -> {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put("a", "a" + random.nextInt(5));
        if (random.nextInt(3) == 0) {
          tags.put("b", "b" + random.nextInt(2000));
        }
        if (random.nextInt(50) == 0) {
          tags.put("rare", "r");
        }
        return tags;
      }
    }
  }

  private IndexingReport index(SegmentSpec spec, SegmentStore segments) throws Exception {
    SegmentFileBuilder builder =
        new SegmentFileBuilder(
            store, io, INDEXES, BuildOptions.builder().workDirectory(directory).build());
    int formatVersion = ((HasTableOperations) table).operations().current().formatVersion();
    return new SnapshotIndexer(builder, segments, 1)
        .index(spec, TableSnapshot.current(table), formatVersion, IndexingListener.none());
  }

  @Test
  void testMapKeysWithNullAndEmptyMapsAndTheForwardPolicy() throws Exception {
    TableConfig config =
        TableConfig.builder(IDENTITY)
            .column("name", ColumnConfig.of(IndexKind.INVERTED))
            .column("score", ColumnConfig.of(IndexKind.RANGE))
            .mapKeys("tags", new MapKeySelection.Listed(List.of("a", "b", "missing")))
            .build();
    // b has up to 2000 values in about 700 rows: nearly unique, so a bloom index instead of an
    // inverted one, no forward index (above the limit) and no dictionary; a has 5 values.
    SegmentSpec spec = SegmentSpec.from(config, table.schema()).withForwardMaxCardinality(100);
    SegmentStore segments = SegmentStore.inDirectory(directory.resolve("segments"));

    IndexingReport report = index(spec, segments);

    assertThat(report.failed()).isEmpty();
    DataFileInfo file = TableSnapshot.current(table).dataFiles().getFirst();
    Map<String, Value[]> expected =
        DecodedValues.read(
            store,
            Location.parse(file.path()),
            file.fileSizeInBytes(),
            List.of("name", "score"),
            Map.of("tags", List.of("a", "b", "missing")));
    try (Segment segment =
        segments.open(segments.locationOf(spec, file.path(), file.fileSizeInBytes()), INDEXES)) {
      RoundTripChecks.check(segment, expected, 3, 40);
      assertThat(segment.indexIds("tags['a']")).containsExactly("forward", "inverted");
      assertThat(segment.indexIds("tags['b']")).containsExactly("bloom");
      assertThat(segment.dictionary("tags['b']")).isEmpty();
      // Configured columns keep their indexes whatever their values look like.
      assertThat(segment.indexIds("name")).containsExactly("inverted");
      assertThat(segment.nulls("tags['missing']").getCardinality()).isEqualTo(ROWS);
      // Row 0 has a null map, row 1 an empty one, row 2 a null value: all null for key a.
      assertThat(Arrays.copyOf(expected.get("tags['a']"), 4))
          .containsExactly(null, null, null, expected.get("tags['a']")[3]);
      assertThat(segment.nulls("tags['a']").contains(0, 3)).isTrue();
    }
  }

  @Test
  void testWithoutTheBloomPolicyNearlyUniqueKeysKeepTheirInvertedIndex() throws Exception {
    TableConfig config =
        TableConfig.builder(IDENTITY)
            .mapKeys("tags", new MapKeySelection.Listed(List.of("b")))
            .build();
    SegmentSpec spec = SegmentSpec.from(config, table.schema()).withKeyInvertedMinDocsPerValue(0);
    SegmentStore segments = SegmentStore.inDirectory(directory.resolve("segments"));

    assertThat(index(spec, segments).failed()).isEmpty();

    DataFileInfo file = TableSnapshot.current(table).dataFiles().getFirst();
    try (Segment segment =
        segments.open(segments.locationOf(spec, file.path(), file.fileSizeInBytes()), INDEXES)) {
      assertThat(segment.indexIds("tags['b']")).containsExactly("forward", "inverted");
      assertThat(segment.dictionary("tags['b']").orElseThrow().size()).isGreaterThan(100);
    }
  }

  @Test
  void testRenamedColumnIsFoundByFieldIdAndAnAddedColumnIsNull() throws Exception {
    table
        .updateSchema()
        .renameColumn("name", "label")
        .addColumn("extra", Types.LongType.get())
        .commit();
    TableConfig config =
        TableConfig.builder(IDENTITY)
            .column("label", ColumnConfig.of(IndexKind.INVERTED))
            .column("extra", ColumnConfig.of(IndexKind.INVERTED, IndexKind.RANGE))
            .column("id", ColumnConfig.of(IndexKind.RANGE))
            .build();
    SegmentSpec spec = SegmentSpec.from(config, table.schema());
    SegmentStore segments = SegmentStore.inDirectory(directory.resolve("segments"));

    IndexingReport report = index(spec, segments);

    assertThat(report.failed()).isEmpty();
    DataFileInfo file = TableSnapshot.current(table).dataFiles().getFirst();
    // The file still calls the column "name": read it by its old name, compare under the new.
    Map<String, Value[]> decoded =
        DecodedValues.read(
            store,
            Location.parse(file.path()),
            file.fileSizeInBytes(),
            List.of("name", "id"),
            Map.of());
    Map<String, Value[]> expected = new LinkedHashMap<>();
    expected.put("label", decoded.get("name"));
    expected.put("id", decoded.get("id"));
    expected.put("extra", new Value[ROWS]);
    try (Segment segment =
        segments.open(segments.locationOf(spec, file.path(), file.fileSizeInBytes()), INDEXES)) {
      RoundTripChecks.check(segment, expected, 4, 30);
      assertThat(segment.column("name")).isEmpty();
      assertThat(segment.nulls("label").getCardinality()).isEqualTo((ROWS + 6) / 7);
      assertThat(segment.statistics().file(0, "score").orElseThrow().nullCount())
          .hasValue((ROWS + 10) / 11);
    }
  }
}
