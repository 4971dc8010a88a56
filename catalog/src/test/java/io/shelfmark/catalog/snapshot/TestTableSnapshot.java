package io.shelfmark.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.TestingLake;
import io.shelfmark.catalog.TestingTables;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
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

/**
 * Listing and diffing snapshots of a real table (JDBC catalog on SQLite, files on the embedded S3
 * server) through a history of appends, a file removal and a position delete.
 */
class TestTableSnapshot {
  @TempDir static Path directory;
  private static TestingLake lake;
  private static Catalog catalog;

  @BeforeAll
  static void start() throws IOException {
    lake = TestingLake.start(directory);
    catalog = Catalogs.open(lake.jdbcCatalog("snapshots"), lake.store());
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
  void tableWithoutSnapshotsHasNoFiles() {
    Table table = createTable("empty");
    TableSnapshot snapshot = TableSnapshot.current(table);
    assertThat(snapshot.snapshotId()).isEmpty();
    assertThat(snapshot.dataFiles()).isEmpty();
    assertThat(snapshot.deleteFiles()).isEmpty();
    assertThat(snapshot.table()).isEqualTo("snapshots.obs.empty");
  }

  @Test
  void diffsFollowAppendsRemovalsAndDeletes() throws IOException {
    Table table = createTable("history");
    TableSnapshot empty = TableSnapshot.current(table);

    DataFile a = TestingTables.writeDataFile(table, 1, 20);
    DataFile b = TestingTables.writeDataFile(table, 2, 30);
    table.newAppend().appendFile(a).appendFile(b).commit();
    long first = table.currentSnapshot().snapshotId();

    DataFile c = TestingTables.writeDataFile(table, 1, 40);
    table.newAppend().appendFile(c).commit();
    long second = table.currentSnapshot().snapshotId();

    table.newDelete().deleteFile(b).commit();
    long third = table.currentSnapshot().snapshotId();

    DeleteFile deletes = TestingTables.writePositionDeletes(table, a, List.of(0L, 5L));
    table.newRowDelta().addDeletes(deletes).commit();
    long fourth = table.currentSnapshot().snapshotId();

    TableSnapshot s1 = TableSnapshot.of(table, first);
    TableSnapshot s2 = TableSnapshot.of(table, second);
    TableSnapshot s3 = TableSnapshot.of(table, third);
    TableSnapshot s4 = TableSnapshot.current(table);
    assertThat(s4.snapshotId()).hasValue(fourth);
    assertThat(paths(s1.dataFiles())).containsExactlyInAnyOrder(a.location(), b.location());
    assertThat(s2.recordCount()).isEqualTo(90);
    assertThat(s3.recordCount()).isEqualTo(60);

    SnapshotDiff fromEmpty = SnapshotDiff.between(empty, s1);
    assertThat(fromEmpty.fromSnapshotId()).isEmpty();
    assertThat(fromEmpty.toSnapshotId()).hasValue(first);
    assertThat(paths(fromEmpty.added()))
        .containsExactlyElementsOf(sorted(a.location(), b.location()));
    assertThat(fromEmpty.removed()).isEmpty();

    SnapshotDiff appended = SnapshotDiff.between(s1, s2);
    assertThat(paths(appended.added())).containsExactly(c.location());
    assertThat(appended.removed()).isEmpty();
    assertThat(appended.deletesChanged()).isEmpty();
    assertThat(appended.added().getFirst().dataSequenceNumber()).isEqualTo(2);

    SnapshotDiff removed = SnapshotDiff.between(s2, s3);
    assertThat(removed.added()).isEmpty();
    assertThat(paths(removed.removed())).containsExactly(b.location());
    assertThat(removed.removed().getFirst().partition().values()).containsExactly(2L);

    SnapshotDiff deleted = SnapshotDiff.between(s3, s4);
    assertThat(deleted.added()).isEmpty();
    assertThat(deleted.removed()).isEmpty();
    // Iceberg assigns a position-delete file to every data file of its partition with a smaller
    // sequence number (its file_path statistics are truncated, so they do not narrow it to a):
    // readers must match each deleted position's file_path. Shelfmark reports what Iceberg plans.
    assertThat(paths(deleted.deletesChanged()))
        .containsExactlyElementsOf(sorted(a.location(), c.location()));
    for (DataFileInfo changed : deleted.deletesChanged()) {
      assertThat(changed.deleteFiles()).containsExactly(deletes.location());
    }
    DeleteFileInfo delete = s4.deleteFiles().get(deletes.location());
    assertThat(delete.content()).isEqualTo(FileContent.POSITION_DELETES);
    assertThat(delete.format()).isEqualTo(FileFormat.PARQUET);
    assertThat(delete.isDeletionVector()).isFalse();
    assertThat(delete.recordCount()).isEqualTo(2);
    assertThat(delete.dataSequenceNumber()).isEqualTo(4);
    assertThat(delete.partition().values()).containsExactly(1L);
    assertThat(delete.equalityFieldIds()).isEmpty();
    assertThat(SnapshotDiff.between(s4, s4).isEmpty()).isTrue();
  }

  @Test
  void unknownSnapshotIsNamed() throws IOException {
    Table table = createTable("unknown_snapshot");
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 1, 1)).commit();
    long current = table.currentSnapshot().snapshotId();
    assertThatThrownBy(() -> TableSnapshot.of(table, 12345L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot list snapshot 12345 of snapshots.obs.unknown_snapshot: no such snapshot (it may have expired; current is %s)",
            current);
  }

  @Test
  void snapshotsOfDifferentTablesAreNotCompared() {
    TableSnapshot one =
        new TableSnapshot("lake.obs.one", OptionalLong.empty(), List.of(), List.of());
    TableSnapshot two =
        new TableSnapshot("lake.obs.two", OptionalLong.empty(), List.of(), List.of());
    assertThatThrownBy(() -> SnapshotDiff.between(one, two))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot diff snapshots of different tables: lake.obs.one and lake.obs.two");
  }

  @Test
  void listingRefusesDanglingDeleteReferences() {
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
            List.of("s3://b/t/data/d.parquet"));
    assertThatThrownBy(() -> new TableSnapshot("t", OptionalLong.of(1), List.of(file), List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot list snapshot 1 of t: data file s3://b/t/data/f.parquet refers to delete file s3://b/t/data/d.parquet, which is not listed");
  }

  private static Table createTable(String name) {
    return catalog.createTable(
        TableIdentifier.of("obs", name),
        TestingTables.SCHEMA,
        TestingTables.SPEC,
        Map.of(TableProperties.FORMAT_VERSION, "2"));
  }

  private static List<String> paths(List<DataFileInfo> files) {
    return files.stream().map(DataFileInfo::path).toList();
  }

  private static List<String> sorted(String... paths) {
    return java.util.Arrays.stream(paths).sorted().toList();
  }
}
