package io.shelfmark.broker.table;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the broker reports about one served table.
 *
 * @param name the table's name as written in SQL, e.g. {@code obs.metrics}
 * @param state {@code INDEXING} while the served snapshot's segments are being built (queries are
 *     answered meanwhile: files without a segment are read directly), {@code SERVING} once every
 *     data file has a segment or a recorded failure
 * @param snapshotId the Iceberg snapshot being served, -1 when the table has none yet
 * @param snapshotCommittedAtMillis when that snapshot was committed, milliseconds since the epoch;
 *     -1 when unknown (no snapshot, or a broker that reads only routings)
 * @param dataFiles live data files in that snapshot
 * @param records rows in those data files (before deletes)
 * @param dataBytes bytes of those data files
 * @param recordsIndexed rows of the data files whose segment is built (progress of indexing)
 * @param segmentsReady segments built and servable
 * @param segmentsPending data files whose segment is not built yet
 * @param segmentsFailed segments whose build failed, or that the server could not use (those files
 *     are read directly)
 * @param segmentsRepaired segments whose local copy the server found damaged and downloaded again
 *     intact from the segment store (they serve as before; the count tells of a failing disk)
 * @param indexBytes bytes of the ready segments
 * @param warmup where the serving node's warm-up is: {@code pending} (waiting for its first table's
 *     segments), {@code running}, {@code done} or {@code off}; measured queries wait for {@code
 *     done} or {@code off}
 * @param failures why segments failed, one entry per failed data file (at most {@link
 *     #MAX_FAILURES_LISTED})
 */
public record TableStatus(
    String name,
    String state,
    long snapshotId,
    long snapshotCommittedAtMillis,
    long dataFiles,
    long records,
    long dataBytes,
    long recordsIndexed,
    long segmentsReady,
    long segmentsPending,
    long segmentsFailed,
    long segmentsRepaired,
    long indexBytes,
    String warmup,
    List<SegmentFailure> failures) {
  /** How many failures a status lists; the count is always complete. */
  public static final int MAX_FAILURES_LISTED = 20;

  public static final String INDEXING = "INDEXING";
  public static final String SERVING = "SERVING";

  /** A status without the snapshot's commit time. */
  public TableStatus(
      String name,
      String state,
      long snapshotId,
      long dataFiles,
      long records,
      long dataBytes,
      long recordsIndexed,
      long segmentsReady,
      long segmentsPending,
      long segmentsFailed,
      long segmentsRepaired,
      long indexBytes,
      String warmup,
      List<SegmentFailure> failures) {
    this(
        name,
        state,
        snapshotId,
        -1,
        dataFiles,
        records,
        dataBytes,
        recordsIndexed,
        segmentsReady,
        segmentsPending,
        segmentsFailed,
        segmentsRepaired,
        indexBytes,
        warmup,
        failures);
  }

  public TableStatus {
    requireNonNull(name, "name is null");
    requireNonNull(state, "state is null");
    requireNonNull(warmup, "warmup is null");
    failures = List.copyOf(requireNonNull(failures, "failures is null"));
  }

  /** A data file whose segment could not be built or used, and why. */
  public record SegmentFailure(String dataFile, String reason) {
    public SegmentFailure {
      requireNonNull(dataFile, "dataFile is null");
      requireNonNull(reason, "reason is null");
    }
  }
}
