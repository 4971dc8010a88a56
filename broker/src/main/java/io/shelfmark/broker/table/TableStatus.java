package io.shelfmark.broker.table;

import static java.util.Objects.requireNonNull;

/**
 * What the broker reports about one served table.
 *
 * @param name the table's name as written in SQL, e.g. {@code obs.metrics}
 * @param snapshotId the Iceberg snapshot being served, -1 when the table has none yet
 * @param dataFiles live data files in that snapshot
 * @param records rows in those data files (before deletes)
 * @param dataBytes bytes of those data files
 * @param segmentsReady segments built and servable
 * @param segmentsFailed segments whose build failed
 * @param indexBytes bytes of the ready segments
 */
public record TableStatus(
    String name,
    long snapshotId,
    long dataFiles,
    long records,
    long dataBytes,
    long segmentsReady,
    long segmentsFailed,
    long indexBytes) {
  public TableStatus {
    requireNonNull(name, "name is null");
  }
}
