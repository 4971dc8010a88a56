package io.shelfmark.catalog.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.catalog.CatalogException;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.catalog.TestingLake;
import io.shelfmark.catalog.TestingTables;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.apache.iceberg.HistoryEntry;
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
 * Finding the snapshot a time-travel query asks for in a real table's metadata (JDBC catalog on
 * SQLite, files on the embedded S3 server): by id, by time through the table's history (a rollback
 * included), and each refusal with what the table keeps instead.
 */
class TestSnapshotHistory {
  @TempDir static Path directory;
  private static TestingLake lake;
  private static Catalog catalog;

  @BeforeAll
  static void start() throws IOException {
    lake = TestingLake.start(directory);
    catalog = Catalogs.open(lake.jdbcCatalog("history"), lake.store());
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
  void findsSnapshotsByIdAndByTheTimeTheyWereCurrent() throws IOException {
    Table table = createTable("by_time");
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 1, 10)).commit();
    long first = table.currentSnapshot().snapshotId();
    afterCommit(table);
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 2, 10)).commit();
    long second = table.currentSnapshot().snapshotId();
    afterCommit(table);
    // Rolled back: from now on the first snapshot is current again, the second stays kept.
    table.manageSnapshots().rollbackTo(first).commit();

    assertThat(resolve(table, new SnapshotSelector.Id(second)).snapshotId()).isEqualTo(second);
    HistoryEntry[] history = table.history().toArray(HistoryEntry[]::new);
    assertThat(history).hasSize(3);
    assertThat(resolve(table, at(history[0].timestampMillis())).snapshotId()).isEqualTo(first);
    assertThat(resolve(table, at(history[1].timestampMillis())).snapshotId()).isEqualTo(second);
    // After the rollback readers saw the first snapshot again, not the newer second.
    assertThat(resolve(table, at(history[2].timestampMillis())).snapshotId()).isEqualTo(first);
    assertThat(
            resolve(table, new SnapshotSelector.AsOf(Instant.parse("2999-01-01T00:00:00Z")))
                .snapshotId())
        .isEqualTo(first);
  }

  @Test
  void refusesAnUnknownIdListingTheSnapshotsKept() throws IOException {
    Table table = createTable("unknown_id");
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 1, 10)).commit();
    long only = table.currentSnapshot().snapshotId();
    assertThatThrownBy(() -> resolve(table, new SnapshotSelector.Id(42)))
        .isInstanceOf(CatalogException.class)
        .hasMessageStartingWith(
            "Cannot query obs.unknown_id at snapshot 42: the table has no such snapshot (it never"
                + " existed, or it expired); it keeps 1 snapshot: "
                + only
                + " (committed ")
        .hasMessageEndingWith("(ask for one of these)");
  }

  @Test
  void refusesATimeBeforeTheFirstSnapshotNamingIt() throws IOException {
    Table table = createTable("early");
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 1, 10)).commit();
    long first = table.currentSnapshot().snapshotId();
    Instant committed = Instant.ofEpochMilli(table.currentSnapshot().timestampMillis());
    assertThatThrownBy(() -> resolve(table, at(committed.toEpochMilli() - 1)))
        .isInstanceOf(CatalogException.class)
        .hasMessage(
            "Cannot query obs.early as of %s: that is before the oldest snapshot in its history, %d, committed at %s (ask for that time or later)",
            committed.minusMillis(1), first, committed);
  }

  @Test
  void refusesAnExpiredSnapshotByIdAndByTime() throws IOException {
    Table table = createTable("expired");
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 1, 10)).commit();
    long first = table.currentSnapshot().snapshotId();
    long firstAt = table.currentSnapshot().timestampMillis();
    afterCommit(table);
    table.newAppend().appendFile(TestingTables.writeDataFile(table, 2, 10)).commit();
    long second = table.currentSnapshot().snapshotId();
    table.expireSnapshots().expireSnapshotId(first).commit();
    table.refresh();

    assertThatThrownBy(() -> resolve(table, new SnapshotSelector.Id(first)))
        .hasMessageContaining("no such snapshot (it never existed, or it expired)")
        .hasMessageContaining("it keeps 1 snapshot: " + second);
    // Expiring a snapshot drops its history entries too: its time is now before the history.
    assertThatThrownBy(() -> resolve(table, at(firstAt)))
        .hasMessageContaining("that is before the oldest snapshot in its history, " + second);
  }

  @Test
  void refusesATableWithoutSnapshots() {
    Table table = createTable("empty");
    assertThatThrownBy(() -> resolve(table, at(0)))
        .hasMessage(
            "Cannot query obs.empty as of 1970-01-01T00:00:00Z: the table has no snapshot yet");
    assertThatThrownBy(() -> resolve(table, new SnapshotSelector.Id(1)))
        .hasMessageEndingWith("the table has no snapshot yet");
  }

  @Test
  void readsOptionValues() {
    assertThat(SnapshotSelector.of(java.util.Optional.of(" 123 "), java.util.Optional.empty()))
        .contains(new SnapshotSelector.Id(123));
    assertThat(SnapshotSelector.asOf("1764227700000").time())
        .isEqualTo(Instant.ofEpochMilli(1764227700000L));
    assertThat(SnapshotSelector.asOf("2026-11-27T07:15:00Z").time())
        .isEqualTo(Instant.parse("2026-11-27T07:15:00Z"));
    assertThat(SnapshotSelector.asOf("2026-11-27T08:15:00+01:00").time())
        .isEqualTo(Instant.parse("2026-11-27T07:15:00Z"));
    assertThat(SnapshotSelector.asOf("2026-11-27T07:15:00").time())
        .isEqualTo(Instant.parse("2026-11-27T07:15:00Z"));
    assertThat(SnapshotSelector.of(java.util.Optional.of(""), java.util.Optional.of(" ")))
        .isEmpty();
    assertThatThrownBy(() -> SnapshotSelector.asOf("2026-11-27"))
        .hasMessageStartingWith(
            "Cannot use asOfTimestamp=2026-11-27: it must be epoch milliseconds");
    assertThatThrownBy(() -> SnapshotSelector.snapshotId("12a"))
        .hasMessageStartingWith("Cannot use snapshotId=12a: it must be an Iceberg snapshot id");
    assertThatThrownBy(
            () -> SnapshotSelector.of(java.util.Optional.of("1"), java.util.Optional.of("2")))
        .hasMessage(
            "Cannot use snapshotId=1 together with asOfTimestamp=2: they may name different snapshots (give one)");
  }

  /** Waits out the millisecond of the last commit, so that the next one is committed later. */
  private static void afterCommit(Table table) {
    long committed = table.currentSnapshot().timestampMillis();
    while (java.time.Clock.systemUTC().millis() <= committed) {
      Thread.onSpinWait();
    }
  }

  private static SnapshotSelector.AsOf at(long epochMillis) {
    return new SnapshotSelector.AsOf(Instant.ofEpochMilli(epochMillis));
  }

  private static org.apache.iceberg.Snapshot resolve(Table table, SnapshotSelector selector) {
    return SnapshotHistory.resolve(
        table, "obs." + table.name().substring(table.name().lastIndexOf('.') + 1), selector);
  }

  private static Table createTable(String name) {
    return catalog.createTable(
        TableIdentifier.of("obs", name),
        TestingTables.SCHEMA,
        TestingTables.SPEC,
        Map.of(TableProperties.FORMAT_VERSION, "2"));
  }
}
