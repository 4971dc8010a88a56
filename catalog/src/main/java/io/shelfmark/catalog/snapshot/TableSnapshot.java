package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live files of one snapshot of a table: every data file with the delete files that apply to
 * it, as Iceberg plans them ({@code table.newScan().useSnapshot(id).planFiles()}, which reads the
 * snapshot's manifests). Read when a snapshot is synced, never on the query path.
 *
 * <p>Immutable. Data files are in the order Iceberg planned them; {@link #dataFile(String)} finds
 * one by path.
 */
public final class TableSnapshot {
  private static final Logger log = LoggerFactory.getLogger(TableSnapshot.class);

  private final String table;
  private final OptionalLong snapshotId;
  private final Optional<Instant> committedAt;
  private final Map<String, DataFileInfo> dataFiles;
  private final Map<String, DeleteFileInfo> deleteFiles;
  // Both asked for on every query the broker plans: computed once, the snapshot being immutable.
  private final List<DataFileInfo> dataFileList;
  private final long recordCount;

  /**
   * @param table the table's name, for messages
   * @param snapshotId the snapshot's id; empty for a table without snapshots
   * @param dataFiles the live data files; paths must be distinct
   * @param deleteFiles the delete files the data files refer to
   * @throws IllegalArgumentException when two data files share a path or a data file refers to a
   *     delete file that is not given
   */
  public TableSnapshot(
      String table,
      OptionalLong snapshotId,
      Collection<DataFileInfo> dataFiles,
      Collection<DeleteFileInfo> deleteFiles) {
    this(table, snapshotId, Optional.empty(), dataFiles, deleteFiles);
  }

  /**
   * As {@link #TableSnapshot(String, OptionalLong, Collection, Collection)}, with the time the
   * snapshot was committed (what "how far behind is what we serve" is measured from).
   */
  public TableSnapshot(
      String table,
      OptionalLong snapshotId,
      Optional<Instant> committedAt,
      Collection<DataFileInfo> dataFiles,
      Collection<DeleteFileInfo> deleteFiles) {
    this.table = requireNonNull(table, "table is null");
    this.snapshotId = requireNonNull(snapshotId, "snapshotId is null");
    this.committedAt = requireNonNull(committedAt, "committedAt is null");
    requireNonNull(dataFiles, "dataFiles is null");
    requireNonNull(deleteFiles, "deleteFiles is null");
    Map<String, DeleteFileInfo> deletes = new LinkedHashMap<>();
    for (DeleteFileInfo delete : deleteFiles) {
      deletes.put(delete.key(), delete);
    }
    Map<String, DataFileInfo> files = new LinkedHashMap<>();
    for (DataFileInfo file : dataFiles) {
      if (files.put(file.path(), file) != null) {
        throw new IllegalArgumentException(
            "Cannot list snapshot %s of %s: data file %s appears twice"
                .formatted(describe(snapshotId), table, file.path()));
      }
      for (String delete : file.deleteFiles()) {
        if (!deletes.containsKey(delete)) {
          throw new IllegalArgumentException(
              "Cannot list snapshot %s of %s: data file %s refers to delete file %s, which is not listed"
                  .formatted(describe(snapshotId), table, file.path(), delete));
        }
      }
    }
    this.dataFiles = Collections.unmodifiableMap(files);
    this.deleteFiles = Collections.unmodifiableMap(deletes);
    this.dataFileList = List.copyOf(files.values());
    long total = 0;
    for (DataFileInfo file : dataFileList) {
      total += file.recordCount();
    }
    this.recordCount = total;
  }

  /** The live files of the table's current snapshot (none when the table has no snapshot). */
  public static TableSnapshot current(Table table) {
    requireNonNull(table, "table is null");
    return read(table, table.currentSnapshot());
  }

  /**
   * The live files of one snapshot of the table.
   *
   * @throws IllegalArgumentException when the table has no snapshot with that id (expired, or never
   *     existed)
   */
  public static TableSnapshot of(Table table, long snapshotId) {
    requireNonNull(table, "table is null");
    Snapshot snapshot = table.snapshot(snapshotId);
    if (snapshot == null) {
      throw new IllegalArgumentException(
          "Cannot list snapshot %s of %s: no such snapshot (it may have expired; current is %s)"
              .formatted(snapshotId, table.name(), describeCurrent(table)));
    }
    return read(table, snapshot);
  }

  public String table() {
    return table;
  }

  /** The snapshot's id; empty when the table had no snapshot. */
  public OptionalLong snapshotId() {
    return snapshotId;
  }

  /** The live data files, in planning order. */
  /** When the snapshot was committed; empty for a table without snapshots. */
  public Optional<Instant> committedAt() {
    return committedAt;
  }

  public List<DataFileInfo> dataFiles() {
    return dataFileList;
  }

  public Optional<DataFileInfo> dataFile(String path) {
    return Optional.ofNullable(dataFiles.get(requireNonNull(path, "path is null")));
  }

  /**
   * The delete files some live data file refers to, by {@link DeleteFileInfo#key()}: the path, or
   * for a deletion vector the Puffin file's path and the vector's offset.
   */
  public Map<String, DeleteFileInfo> deleteFiles() {
    return deleteFiles;
  }

  /** The total rows of the live data files, before deletes. */
  public long recordCount() {
    return recordCount;
  }

  @Override
  public String toString() {
    return "TableSnapshot{%s@%s, %s data files, %s delete files}"
        .formatted(table, describe(snapshotId), dataFiles.size(), deleteFiles.size());
  }

  private static TableSnapshot read(Table table, Snapshot snapshot) {
    if (snapshot == null) {
      return new TableSnapshot(table.name(), OptionalLong.empty(), List.of(), List.of());
    }
    Map<Integer, PartitionSpec> specs = table.specs();
    List<DataFileInfo> dataFiles = new ArrayList<>();
    Map<String, DeleteFileInfo> deleteFiles = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        // Column statistics are dropped by default; the broker prunes unsegmented files on them.
        table.newScan().useSnapshot(snapshot.snapshotId()).includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        List<String> deletePaths = new ArrayList<>(task.deletes().size());
        for (DeleteFile delete : task.deletes()) {
          DeleteFileInfo info =
              DeleteFileInfo.of(delete, spec(specs, delete.specId(), delete.location()));
          deleteFiles.putIfAbsent(info.key(), info);
          deletePaths.add(info.key());
        }
        DataFile file = task.file();
        dataFiles.add(
            DataFileInfo.of(
                file, spec(specs, file.specId(), file.location()), table.schema(), deletePaths));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot list the files of %s at snapshot %s: %s"
              .formatted(table.name(), snapshot.snapshotId(), e.getMessage()),
          e);
    }
    log.debug(
        "Listed {} data files and {} delete files of {} at snapshot {}",
        dataFiles.size(),
        deleteFiles.size(),
        table.name(),
        snapshot.snapshotId());
    return new TableSnapshot(
        table.name(),
        OptionalLong.of(snapshot.snapshotId()),
        Optional.of(Instant.ofEpochMilli(snapshot.timestampMillis())),
        dataFiles,
        deleteFiles.values());
  }

  private static PartitionSpec spec(Map<Integer, PartitionSpec> specs, int specId, String path) {
    PartitionSpec spec = specs.get(specId);
    if (spec == null) {
      throw new IllegalStateException(
          "Cannot read the partition of %s: partition spec %s is not in the table metadata (known: %s)"
              .formatted(path, specId, specs.keySet()));
    }
    return spec;
  }

  private static String describe(OptionalLong snapshotId) {
    return snapshotId.isPresent() ? Long.toString(snapshotId.getAsLong()) : "(none)";
  }

  private static String describeCurrent(Table table) {
    Snapshot current = table.currentSnapshot();
    return current == null ? "none" : Long.toString(current.snapshotId());
  }
}
