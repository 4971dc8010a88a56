package io.shelfmark.server.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.DeleteFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.CatalogType;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.iceberg.IcebergScenario;
import io.shelfmark.testing.iceberg.ScenarioFile;
import io.shelfmark.testing.iceberg.ScenarioState;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.Encoding;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Deleted-row bitmaps of real Iceberg tables (JDBC catalog on SQLite, a {@code file:} warehouse),
 * written by Iceberg's own position-delete, deletion-vector and equality-delete writers through the
 * {@link IcebergScenario} fixture, whose record of deleted positions its own test checks against
 * Iceberg's generic reader.
 */
class TestDeletedRowsLoader {
  private static final long CACHE_BYTES = 64L << 20;

  @TempDir static Path directory;
  private static ObjectStore store;
  private static Catalog catalog;
  private static ExecutorService executor;

  @BeforeAll
  static void start() {
    store = ObjectStores.local();
    catalog =
        Catalogs.open(
            CatalogConfig.builder()
                .type(CatalogType.JDBC)
                .name("deletes")
                .uri("jdbc:sqlite:" + directory.resolve("catalog.db"))
                .warehouse(directory.resolve("warehouse").toUri().toString())
                .build(),
            store);
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("t"));
    executor = Executors.newFixedThreadPool(2);
  }

  @AfterAll
  static void stop() throws IOException {
    executor.shutdownNow();
    ((Closeable) catalog).close();
    store.close();
  }

  @Test
  void positionDeleteFilesGiveTheDeletedPositionsOfEachDataFile() throws IOException {
    IcebergScenario scenario = scenario("position_deletes", 2);
    scenario.append(80);
    scenario.append(80);
    check(scenario, scenario.deleteRows(4, 4));
    // Several files of one partition chosen at once share one delete file.
    check(scenario, scenario.deleteRows(8, 3));
    Set<String> before = locations(scenario.state());
    ScenarioState appended = scenario.append(40);
    check(scenario, appended);
    // Sequence numbers: delete files committed before a data file never apply to it, even in its
    // partition (Iceberg plans them out; the loader applies what Iceberg planned).
    TableSnapshot snapshot = TableSnapshot.current(scenario.table());
    for (DataFileInfo file : snapshot.dataFiles()) {
      if (!before.contains(file.path())) {
        assertThat(file.deleteFiles()).as("deletes of new file %s", file.path()).isEmpty();
      }
    }
    assertThat(snapshot.dataFiles()).anyMatch(file -> file.deleteFiles().size() >= 2);
    assertThat(snapshot.deleteFiles().values())
        .allMatch(delete -> delete.format() == FileFormat.PARQUET && !delete.isDeletionVector());
    check(scenario, scenario.overwrite(2));
  }

  @Test
  void deletionVectorsGiveTheDeletedPositionsOfEachDataFile() throws IOException {
    IcebergScenario scenario = scenario("deletion_vectors", 3);
    scenario.append(60);
    check(scenario, scenario.deleteRows(3, 4));
    // Deleting again from the same files replaces their vectors by merged ones.
    check(scenario, scenario.deleteRows(7, 2));
    check(scenario, scenario.overwrite(1));
    TableSnapshot snapshot = TableSnapshot.current(scenario.table());
    assertThat(snapshot.deleteFiles()).isNotEmpty();
    assertThat(snapshot.deleteFiles().values()).allMatch(DeleteFileInfo::isDeletionVector);
    // One vector per data file with deletes, though several share a Puffin file.
    long withDeletes =
        scenario.state().files().stream().filter(f -> !f.deletedPositions().isEmpty()).count();
    assertThat(snapshot.deleteFiles()).hasSize((int) withDeletes);
    assertThat(snapshot.deleteFiles().values().stream().map(DeleteFileInfo::path).distinct())
        .hasSizeLessThan((int) withDeletes);
  }

  @Test
  void readsEachDeleteFileOnceForAllItsDataFiles() throws IOException {
    IcebergScenario scenario = scenario("cached", 2);
    scenario.append(60);
    scenario.append(60);
    scenario.deleteRows(10, 3);
    TableSnapshot snapshot = TableSnapshot.current(scenario.table());
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    for (DataFileInfo file : snapshot.dataFiles()) {
      loader.deletedPositions(file, snapshot);
    }
    long requests = store.stats().snapshot().getRequests();
    assertThat(loader.cacheStats().loadCount()).isEqualTo(snapshot.deleteFiles().size());
    for (DataFileInfo file : snapshot.dataFiles()) {
      assertThat(loader.deletedPositions(file, snapshot))
          .isEqualTo(bitmap(scenario.state().file(file.path()).orElseThrow()));
    }
    assertThat(store.stats().snapshot().getRequests()).isEqualTo(requests);
    assertThat(loader.cacheStats().loadCount()).isEqualTo(snapshot.deleteFiles().size());
  }

  @Test
  void skipsRowGroupsOfOtherDataFiles() throws IOException {
    // Unpartitioned, so one position-delete file names every data file; row groups of about 100
    // delete rows, 50 per data file, so each row group holds two data files' deletes. No
    // dictionary: file_path is PLAIN-encoded (the other tests read dictionary-encoded paths).
    IcebergScenario scenario =
        IcebergScenario.create(
            catalog,
            TableIdentifier.of("t", "row_groups"),
            IcebergScenario.SCHEMA,
            PartitionSpec.unpartitioned(),
            2,
            IcebergScenario.localFiles(),
            5,
            Map.of(
                TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "1",
                TableProperties.DELETE_PARQUET_ROW_GROUP_SIZE_BYTES, "1",
                TableProperties.DELETE_PARQUET_DICT_SIZE_BYTES, "1"));
    for (int i = 0; i < 6; i++) {
      scenario.append(60);
    }
    scenario.deleteRows(6, 50);
    // Only one of the six data files stays live; the delete file still applies to it.
    ScenarioState state = scenario.overwrite(5);
    TableSnapshot snapshot = TableSnapshot.current(scenario.table());
    assertThat(snapshot.deleteFiles()).hasSize(1);
    assertThat(pathEncodings(snapshot.deleteFiles().values().iterator().next().path()))
        .doesNotContain(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY)
        .contains(Encoding.PLAIN);
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    check(loader, snapshot, state);
    assertThat(loader.rowGroupsRead()).isEqualTo(1);
    assertThat(loader.rowGroupsSkipped()).isEqualTo(2);
  }

  @Test
  void equalityDeletesBecomePositions() throws IOException {
    for (int formatVersion : new int[] {2, 3}) {
      IcebergScenario scenario = scenario("equality_deletes_v" + formatVersion, formatVersion);
      scenario.append(60);
      scenario.append(60);
      checkAll(scenario, scenario.deleteIds(3, 2));
      // Mixed with position deletes (or vectors) on the same files, and a second equality delete.
      checkAll(scenario, scenario.deleteRows(6, 2));
      checkAll(scenario, scenario.deleteIds(6, 1));
      Set<String> before = locations(scenario.state());
      checkAll(scenario, scenario.overwrite(2));
      // Equality deletes never apply to files committed after them (strictly lower sequence).
      TableSnapshot snapshot = TableSnapshot.current(scenario.table());
      for (DataFileInfo file : snapshot.dataFiles()) {
        if (!before.contains(file.path())) {
          assertThat(file.deleteFiles()).isEmpty();
        }
      }
      assertThat(snapshot.deleteFiles().values())
          .anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES);
    }
  }

  @Test
  void refusesEqualityDeletesOnDoubles() throws IOException {
    IcebergScenario scenario = scenario("equality_on_doubles", 2);
    scenario.append(20);
    Table table = scenario.table();
    DataFileInfo file = TableSnapshot.current(table).dataFiles().getFirst();
    // An equality-delete file on amount (field 3), written by Iceberg but never committed.
    Schema amount = table.schema().select("amount");
    OutputFile output =
        table.io().newOutputFile(table.locationProvider().newDataLocation("eq-amount.parquet"));
    EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(output)
            .forTable(table)
            .withSpec(PartitionSpec.unpartitioned())
            .rowSchema(amount)
            .equalityFieldIds(3)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .buildEqualityWriter();
    try (writer) {
      writer.write(GenericRecord.create(amount).copy("amount", 1.5));
    }
    DeleteFileInfo delete =
        new DeleteFileInfo(
            output.location(),
            FileFormat.PARQUET,
            FileContent.EQUALITY_DELETES,
            writer.toDeleteFile().fileSizeInBytes(),
            1,
            new FilePartition(0, "", List.of()),
            5,
            5,
            List.of(3),
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty());
    DataFileInfo withDelete =
        new DataFileInfo(
            file.path(),
            file.format(),
            file.content(),
            file.fileSizeInBytes(),
            file.recordCount(),
            file.partition(),
            1,
            1,
            List.of(delete.key()));
    TableSnapshot snapshot =
        new TableSnapshot("t.doubles", OptionalLong.of(1), List.of(withDelete), List.of(delete));
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    assertThatThrownBy(() -> loader.deletedPositions(withDelete, snapshot))
        .isInstanceOf(UnsupportedDeletesException.class)
        .hasMessage(
            "Cannot apply equality deletes %s to data file %s: equality on DOUBLE column amount is"
                + " not supported (Iceberg compares floating point with Java equals, where -0.0"
                + " differs from 0.0; rewrite these deletes as position deletes)",
            output.location(), file.path());
  }

  @Test
  void refusesEqualityDeletesInOrc() {
    DeleteFileInfo orc =
        new DeleteFileInfo(
            "file:/lake/t/data/deletes.orc",
            FileFormat.ORC,
            FileContent.EQUALITY_DELETES,
            100,
            2,
            new FilePartition(0, "", List.of()),
            2,
            2,
            List.of(1),
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty());
    DataFileInfo file = dataFile("file:/lake/t/data/f.parquet", 10, List.of(orc.path()));
    TableSnapshot snapshot =
        new TableSnapshot("t.orc", OptionalLong.of(1), List.of(file), List.of(orc));
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    assertThatThrownBy(() -> loader.deletedPositions(file, snapshot))
        .isInstanceOf(UnsupportedDeletesException.class)
        .hasMessage(
            "Cannot apply equality delete file file:/lake/t/data/deletes.orc to data file"
                + " file:/lake/t/data/f.parquet: it is ORC, and Shelfmark reads delete files in"
                + " Parquet and deletion vectors only (rewrite the deletes with"
                + " write.delete.format.default=parquet)")
        .satisfies(
            e -> {
              assertThat(((UnsupportedDeletesException) e).deleteFile()).isEqualTo(orc.path());
              assertThat(((UnsupportedDeletesException) e).dataFile()).isEqualTo(file.path());
            });
    assertThat(DeletedRowsLoader.isSupported(orc)).isFalse();
  }

  @Test
  void refusesPositionDeletesInAvro() {
    DeleteFileInfo avro =
        new DeleteFileInfo(
            "file:/lake/t/data/deletes.avro",
            FileFormat.AVRO,
            FileContent.POSITION_DELETES,
            100,
            2,
            new FilePartition(0, "", List.of()),
            2,
            2,
            List.of(),
            Optional.empty(),
            OptionalLong.empty(),
            OptionalLong.empty());
    DataFileInfo file = dataFile("file:/lake/t/data/f.parquet", 10, List.of(avro.path()));
    TableSnapshot snapshot =
        new TableSnapshot("t.avro", OptionalLong.of(1), List.of(file), List.of(avro));
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    assertThatThrownBy(() -> loader.deletedPositions(file, snapshot))
        .isInstanceOf(UnsupportedDeletesException.class)
        .hasMessage(
            "Cannot apply position delete file file:/lake/t/data/deletes.avro to data file"
                + " file:/lake/t/data/f.parquet: it is AVRO, and Shelfmark reads delete files in"
                + " Parquet and deletion vectors only (rewrite the deletes with"
                + " write.delete.format.default=parquet)");
  }

  @Test
  void refusesFilesOfAnotherSnapshot() {
    DataFileInfo file = dataFile("file:/lake/t/data/f.parquet", 10, List.of());
    TableSnapshot empty = new TableSnapshot("t.empty", OptionalLong.empty(), List.of(), List.of());
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    assertThatThrownBy(() -> loader.deletedPositions(file, empty))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot load deleted rows of file:/lake/t/data/f.parquet: it is not a live data file"
                + " of TableSnapshot{t.empty@(none), 0 data files, 0 delete files}");
  }

  /** The encodings of the file_path column chunks of a local Parquet file. */
  private static Set<Encoding> pathEncodings(String location) throws IOException {
    byte[] bytes = Files.readAllBytes(Path.of(URI.create(location)));
    int length =
        ByteBuffer.wrap(bytes, bytes.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    FileMetaData footer =
        Util.readFileMetaData(new ByteArrayInputStream(bytes, bytes.length - 8 - length, length));
    Set<Encoding> encodings = new HashSet<>();
    for (RowGroup rowGroup : footer.getRow_groups()) {
      for (ColumnChunk chunk : rowGroup.getColumns()) {
        if (chunk.getMeta_data().getPath_in_schema().equals(List.of("file_path"))) {
          encodings.addAll(chunk.getMeta_data().getEncodings());
        }
      }
    }
    return encodings;
  }

  private static IcebergScenario scenario(String name, int formatVersion) {
    return IcebergScenario.create(
        catalog,
        TableIdentifier.of("t", name),
        IcebergScenario.SCHEMA,
        IcebergScenario.spec(IcebergScenario.SCHEMA),
        formatVersion,
        IcebergScenario.localFiles(),
        name.hashCode());
  }

  /** The loader's bitmap of every live file equals the fixture's record of deleted positions. */
  private static void check(IcebergScenario scenario, ScenarioState state) throws IOException {
    Table table = scenario.table();
    check(new DeletedRowsLoader(store, executor, CACHE_BYTES), TableSnapshot.current(table), state);
  }

  private static void check(DeletedRowsLoader loader, TableSnapshot snapshot, ScenarioState state)
      throws IOException {
    assertThat(locations(snapshot)).isEqualTo(locations(state));
    for (DataFileInfo file : snapshot.dataFiles()) {
      ScenarioFile expected = state.file(file.path()).orElseThrow();
      assertThat(loader.deletedPositions(file, snapshot))
          .as("deleted positions of %s after %s", file.path(), state.step())
          .isEqualTo(bitmap(expected));
    }
  }

  /** As {@link #check}, with equality-deleted rows counted as deleted positions too. */
  private static void checkAll(IcebergScenario scenario, ScenarioState state) throws IOException {
    TableSnapshot snapshot = TableSnapshot.current(scenario.table());
    DeletedRowsLoader loader = new DeletedRowsLoader(store, executor, CACHE_BYTES);
    assertThat(locations(snapshot)).isEqualTo(locations(state));
    for (DataFileInfo file : snapshot.dataFiles()) {
      RoaringBitmap expected = new RoaringBitmap();
      for (long position : state.file(file.path()).orElseThrow().allDeletedPositions()) {
        expected.add((int) position);
      }
      assertThat(loader.deletedPositions(file, snapshot))
          .as("deleted positions of %s after %s", file.path(), state.step())
          .isEqualTo(expected);
    }
  }

  private static RoaringBitmap bitmap(ScenarioFile file) {
    RoaringBitmap bitmap = new RoaringBitmap();
    for (long position : file.deletedPositions()) {
      bitmap.add((int) position);
    }
    return bitmap;
  }

  private static Set<String> locations(ScenarioState state) {
    Set<String> locations = new HashSet<>();
    for (ScenarioFile file : state.files()) {
      locations.add(file.location());
    }
    return locations;
  }

  private static Set<String> locations(TableSnapshot snapshot) {
    Set<String> locations = new HashSet<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      locations.add(file.path());
    }
    return locations;
  }

  static DataFileInfo dataFile(String path, long rows, List<String> deletes) {
    return new DataFileInfo(
        path,
        FileFormat.PARQUET,
        FileContent.DATA,
        1000,
        rows,
        new FilePartition(0, "", List.of()),
        1,
        1,
        deletes);
  }
}
