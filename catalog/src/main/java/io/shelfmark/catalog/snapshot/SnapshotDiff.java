package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;

/**
 * How the live data files changed between two snapshots of one table: files to build segments for,
 * files whose segments retire, and files kept whose set of applicable deletes changed (their
 * deleted-docs bitmaps must be rebuilt). Lists are sorted by path.
 *
 * @param fromSnapshotId the older snapshot; empty for a table that had none
 * @param toSnapshotId the newer snapshot
 * @param added data files live in {@code to} but not in {@code from}
 * @param removed data files live in {@code from} but not in {@code to}
 * @param deletesChanged data files live in both whose delete files differ, as {@code to} lists them
 */
public record SnapshotDiff(
    OptionalLong fromSnapshotId,
    OptionalLong toSnapshotId,
    List<DataFileInfo> added,
    List<DataFileInfo> removed,
    List<DataFileInfo> deletesChanged) {
  private static final Comparator<DataFileInfo> BY_PATH = Comparator.comparing(DataFileInfo::path);

  public SnapshotDiff {
    requireNonNull(fromSnapshotId, "fromSnapshotId is null");
    requireNonNull(toSnapshotId, "toSnapshotId is null");
    added = List.copyOf(requireNonNull(added, "added is null"));
    removed = List.copyOf(requireNonNull(removed, "removed is null"));
    deletesChanged = List.copyOf(requireNonNull(deletesChanged, "deletesChanged is null"));
  }

  /**
   * Compares two listings of the same table. Data files are immutable, so a path present in both is
   * the same file.
   *
   * @throws IllegalArgumentException when the listings are of different tables
   */
  public static SnapshotDiff between(TableSnapshot from, TableSnapshot to) {
    requireNonNull(from, "from is null");
    requireNonNull(to, "to is null");
    if (!from.table().equals(to.table())) {
      throw new IllegalArgumentException(
          "Cannot diff snapshots of different tables: %s and %s"
              .formatted(from.table(), to.table()));
    }
    List<DataFileInfo> added = new ArrayList<>();
    List<DataFileInfo> deletesChanged = new ArrayList<>();
    for (DataFileInfo file : to.dataFiles()) {
      var before = from.dataFile(file.path());
      if (before.isEmpty()) {
        added.add(file);
      } else if (!new HashSet<>(before.get().deleteFiles())
          .equals(new HashSet<>(file.deleteFiles()))) {
        deletesChanged.add(file);
      }
    }
    List<DataFileInfo> removed = new ArrayList<>();
    for (DataFileInfo file : from.dataFiles()) {
      if (to.dataFile(file.path()).isEmpty()) {
        removed.add(file);
      }
    }
    added.sort(BY_PATH);
    removed.sort(BY_PATH);
    deletesChanged.sort(BY_PATH);
    return new SnapshotDiff(from.snapshotId(), to.snapshotId(), added, removed, deletesChanged);
  }

  /** Whether nothing changed. */
  public boolean isEmpty() {
    return added.isEmpty() && removed.isEmpty() && deletesChanged.isEmpty();
  }
}
