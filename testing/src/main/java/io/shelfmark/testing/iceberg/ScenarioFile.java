package io.shelfmark.testing.iceberg;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One live data file of a scenario's table, with what an independent reader needs to read it as the
 * table's current snapshot sees it.
 *
 * @param location the file's location in the table metadata
 * @param localPath where the same bytes are on local disk (for DuckDB)
 * @param recordCount rows in the file, before deletes
 * @param specId the partition spec the file was written with
 * @param columnNames per Iceberg field id, the column's name inside the file (its name when the
 *     file was written: a later rename does not change the file)
 * @param deletedPositions 0-based positions of rows deleted by position deletes or deletion vectors
 *     in the current snapshot, ascending
 * @param equalityDeletedIds row ids (the first column) removed from this file by equality deletes
 *     in the current snapshot, ascending
 * @param equalityDeletedPositions the positions of those rows in the file, ascending
 */
public record ScenarioFile(
    String location,
    Path localPath,
    long recordCount,
    int specId,
    Map<Integer, String> columnNames,
    List<Long> deletedPositions,
    List<Long> equalityDeletedIds,
    List<Long> equalityDeletedPositions) {
  public ScenarioFile {
    requireNonNull(location, "location is null");
    requireNonNull(localPath, "localPath is null");
    columnNames = Collections.unmodifiableMap(new TreeMap<>(columnNames));
    deletedPositions = List.copyOf(requireNonNull(deletedPositions, "deletedPositions is null"));
    equalityDeletedIds =
        List.copyOf(requireNonNull(equalityDeletedIds, "equalityDeletedIds is null"));
    equalityDeletedPositions =
        List.copyOf(requireNonNull(equalityDeletedPositions, "equalityDeletedPositions is null"));
    if (equalityDeletedPositions.size() != equalityDeletedIds.size()) {
      throw new IllegalArgumentException(
          "Cannot describe %s: %d ids deleted by equality but %d positions"
              .formatted(location, equalityDeletedIds.size(), equalityDeletedPositions.size()));
    }
  }

  /** Every deleted position, by position deletes, deletion vectors or equality deletes. */
  public SortedSet<Long> allDeletedPositions() {
    TreeSet<Long> all = new TreeSet<>(deletedPositions);
    all.addAll(equalityDeletedPositions);
    return Collections.unmodifiableSortedSet(all);
  }

  /** Rows left after deletes. */
  public long liveRowCount() {
    return recordCount - deletedPositions.size() - equalityDeletedIds.size();
  }
}
