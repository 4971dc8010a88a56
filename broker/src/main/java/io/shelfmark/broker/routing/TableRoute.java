package io.shelfmark.broker.routing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.sql.schema.BoundTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;

/**
 * What the broker knows about one served table, as published when a snapshot is synced: the schema
 * queries bind against, the partition specs its files were written with, the snapshot's live files
 * and the segments built for them. Everything pruning needs is here, so planning never reads the
 * catalog or storage.
 *
 * @param table the table as the SQL planner sees it
 * @param schema the Iceberg schema of the served snapshot
 * @param specs every partition spec of the table, by spec id
 * @param snapshot the live data and delete files of the served snapshot
 * @param segments the ready segment of each data file that has one, by data file path; files
 *     without an entry are read directly from Parquet
 * @param replicas the servers that serve each data file, by data file path, in the order to try
 *     them (their member ids in the cluster state); empty when one server in this process serves
 *     every file
 */
public record TableRoute(
    BoundTable table,
    Schema schema,
    Map<Integer, PartitionSpec> specs,
    TableSnapshot snapshot,
    Map<String, SegmentRoute> segments,
    Map<String, List<String>> replicas) {
  public TableRoute {
    requireNonNull(table, "table is null");
    requireNonNull(schema, "schema is null");
    specs = Map.copyOf(requireNonNull(specs, "specs is null"));
    requireNonNull(snapshot, "snapshot is null");
    segments = Map.copyOf(requireNonNull(segments, "segments is null"));
    replicas = Map.copyOf(requireNonNull(replicas, "replicas is null"));
  }

  /** A route served by the server in this process. */
  public TableRoute(
      BoundTable table,
      Schema schema,
      Map<Integer, PartitionSpec> specs,
      TableSnapshot snapshot,
      Map<String, SegmentRoute> segments) {
    this(table, schema, specs, snapshot, segments, Map.of());
  }

  /** The served snapshot's id; -1 when the table has no snapshot. */
  public long snapshotId() {
    return snapshot.snapshotId().orElse(-1);
  }

  /** The segment of {@code file}, if it has a ready one. */
  public Optional<SegmentRoute> segment(DataFileInfo file) {
    return Optional.ofNullable(segments.get(file.path()));
  }

  /** The servers of {@code file}, in the order to try them; empty when served in this process. */
  public List<String> replicas(DataFileInfo file) {
    return replicas.getOrDefault(file.path(), List.of());
  }
}
