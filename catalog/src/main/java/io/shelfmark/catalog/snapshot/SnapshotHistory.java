package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.CatalogException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.HistoryEntry;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Finds the snapshot a {@link SnapshotSelector} asks for in a table's metadata, through
 * iceberg-core's own views of it: {@link Table#snapshot(long)} for an id, {@link Table#history()}
 * (the snapshot log: which snapshot was current from when) for a time. A time picks the snapshot
 * that was current then, which after a rollback need not be the newest snapshot committed before it
 * — the answer a reader at that time saw.
 *
 * <p>Every refusal names the table and what it holds instead, so that a client can correct its
 * request: the snapshots kept, the oldest time the history reaches back to. Stateless.
 */
public final class SnapshotHistory {
  /** How many snapshots a refusal lists (the newest ones). */
  static final int LISTED = 8;

  private SnapshotHistory() {}

  /**
   * The snapshot of {@code table} that {@code selector} names.
   *
   * @param name the table's name, for messages
   * @throws CatalogException ({@link CatalogException.Reason#NOT_FOUND}) when there is no such
   *     snapshot: an unknown or expired id, a time before the table's first snapshot, a time whose
   *     snapshot has expired, a table without snapshots
   */
  public static Snapshot resolve(Table table, String name, SnapshotSelector selector) {
    requireNonNull(table, "table is null");
    requireNonNull(name, "name is null");
    requireNonNull(selector, "selector is null");
    return switch (selector) {
      case SnapshotSelector.Id id -> byId(table, name, id.snapshotId());
      case SnapshotSelector.AsOf asOf -> asOf(table, name, asOf.time());
    };
  }

  private static Snapshot byId(Table table, String name, long snapshotId) {
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null) {
      throw new CatalogException(
          CatalogException.Reason.NOT_FOUND,
          "Cannot query %s at snapshot %d: the table has no such snapshot (it never existed, or it expired); %s"
              .formatted(name, snapshotId, kept(table)));
    }
    return snapshot;
  }

  private static Snapshot asOf(Table table, String name, Instant time) {
    List<HistoryEntry> history = table.history();
    if (history.isEmpty()) {
      throw new CatalogException(
          CatalogException.Reason.NOT_FOUND,
          "Cannot query %s as of %s: the table has no snapshot yet".formatted(name, time));
    }
    HistoryEntry current = null;
    for (HistoryEntry entry : history) {
      if (entry.timestampMillis() <= time.toEpochMilli()) {
        current = entry; // the log is in commit order: the last one at or before the time wins
      }
    }
    if (current == null) {
      HistoryEntry first = history.getFirst();
      throw new CatalogException(
          CatalogException.Reason.NOT_FOUND,
          "Cannot query %s as of %s: that is before the oldest snapshot in its history, %d, committed at %s (ask for that time or later)"
              .formatted(
                  name, time, first.snapshotId(), Instant.ofEpochMilli(first.timestampMillis())));
    }
    Snapshot snapshot = table.snapshot(current.snapshotId());
    if (snapshot == null) {
      throw new CatalogException(
          CatalogException.Reason.NOT_FOUND,
          "Cannot query %s as of %s: the snapshot current then, %d, expired; %s"
              .formatted(name, time, current.snapshotId(), kept(table)));
    }
    return snapshot;
  }

  /** The snapshots the table keeps, the newest {@link #LISTED}, for a refusal. */
  static String kept(Table table) {
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    if (snapshots.isEmpty()) {
      return "the table has no snapshot yet";
    }
    snapshots.sort(
        Comparator.comparingLong(Snapshot::timestampMillis)
            .thenComparingLong(Snapshot::sequenceNumber));
    List<String> listed = new ArrayList<>();
    for (Snapshot snapshot :
        snapshots.subList(Math.max(0, snapshots.size() - LISTED), snapshots.size())) {
      listed.add(
          "%d (committed %s)"
              .formatted(snapshot.snapshotId(), Instant.ofEpochMilli(snapshot.timestampMillis())));
    }
    return "it keeps %d snapshot%s%s: %s (ask for one of these)"
        .formatted(
            snapshots.size(),
            snapshots.size() == 1 ? "" : "s",
            snapshots.size() > LISTED ? ", the newest " + LISTED : "",
            String.join(", ", listed));
  }
}
