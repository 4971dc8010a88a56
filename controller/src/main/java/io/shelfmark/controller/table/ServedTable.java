package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * A table the controller serves, as of one moment: the snapshot served, and the segment state of
 * each of its live data files. Immutable: every change (a segment built, a snapshot synced) makes a
 * new instance, which the controller publishes whole — so whoever routes queries always sees one
 * consistent snapshot with each file either indexed or marked for a direct Parquet read.
 *
 * @param config the table config it was onboarded with
 * @param schema the Iceberg schema of the served snapshot
 * @param specs every partition spec of the table, by id
 * @param formatVersion the table's Iceberg format version
 * @param snapshot the live files of the served snapshot
 * @param segmentSpec what each segment holds
 * @param segments the segment state of every live data file, by path, in snapshot order
 * @param syncedAt when the snapshot was read from the catalog
 */
public record ServedTable(
    TableConfig config,
    Schema schema,
    Map<Integer, PartitionSpec> specs,
    int formatVersion,
    TableSnapshot snapshot,
    SegmentSpec segmentSpec,
    Map<String, SegmentState> segments,
    Instant syncedAt) {
  public static final String INDEXING = "INDEXING";
  public static final String SERVING = "SERVING";

  public ServedTable {
    requireNonNull(config, "config is null");
    requireNonNull(schema, "schema is null");
    specs = Map.copyOf(requireNonNull(specs, "specs is null"));
    requireNonNull(snapshot, "snapshot is null");
    requireNonNull(segmentSpec, "segmentSpec is null");
    segments = Collections.unmodifiableMap(new LinkedHashMap<>(segments));
    requireNonNull(syncedAt, "syncedAt is null");
    for (DataFileInfo file : snapshot.dataFiles()) {
      if (!segments.containsKey(file.path())) {
        throw new IllegalArgumentException(
            "Cannot serve " + file.path() + " of " + config.identity() + ": no segment state");
      }
    }
  }

  /** This table with the segment of {@code dataFile} in a new state. */
  public ServedTable withSegment(String dataFile, SegmentState state) {
    if (!segments.containsKey(dataFile)) {
      throw new IllegalArgumentException(
          "Cannot update the segment of " + dataFile + ": not a live file of " + sqlName());
    }
    Map<String, SegmentState> updated = new LinkedHashMap<>(segments);
    updated.put(dataFile, requireNonNull(state, "state is null"));
    return new ServedTable(
        config, schema, specs, formatVersion, snapshot, segmentSpec, updated, syncedAt);
  }

  /** The name queries use, e.g. {@code obs.metrics}. */
  public String sqlName() {
    return config.identity().qualifiedName();
  }

  /** The Iceberg snapshot served; -1 when the table has no snapshot yet. */
  public long snapshotId() {
    return snapshot.snapshotId().orElse(-1);
  }

  /** {@link #INDEXING} while some data file's segment is pending, else {@link #SERVING}. */
  public String state() {
    return segmentsPending() > 0 ? INDEXING : SERVING;
  }

  public long dataFiles() {
    return segments.size();
  }

  /** Rows of the live data files, before deletes. */
  public long records() {
    return snapshot.recordCount();
  }

  public long dataBytes() {
    long total = 0;
    for (DataFileInfo file : snapshot.dataFiles()) {
      total += file.fileSizeInBytes();
    }
    return total;
  }

  public long segmentsReady() {
    return count(SegmentState.Ready.class);
  }

  public long segmentsPending() {
    return count(SegmentState.Pending.class);
  }

  public long segmentsFailed() {
    return count(SegmentState.Failed.class);
  }

  /** Bytes of the ready segments. */
  public long indexBytes() {
    long total = 0;
    for (SegmentState state : segments.values()) {
      if (state instanceof SegmentState.Ready ready) {
        total += ready.sizeInBytes();
      }
    }
    return total;
  }

  /** Rows of the data files whose segment is ready. */
  public long recordsIndexed() {
    long total = 0;
    for (DataFileInfo file : snapshot.dataFiles()) {
      if (segments.get(file.path()) instanceof SegmentState.Ready) {
        total += file.recordCount();
      }
    }
    return total;
  }

  /** The failed builds, in snapshot order. */
  public List<SegmentState.Failed> failures() {
    List<SegmentState.Failed> failures = new ArrayList<>();
    for (SegmentState state : segments.values()) {
      if (state instanceof SegmentState.Failed failed) {
        failures.add(failed);
      }
    }
    return failures;
  }

  private long count(Class<? extends SegmentState> kind) {
    long count = 0;
    for (SegmentState state : segments.values()) {
      if (kind.isInstance(state)) {
        count++;
      }
    }
    return count;
  }
}
