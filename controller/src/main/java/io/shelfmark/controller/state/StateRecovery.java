package io.shelfmark.controller.state;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Rebuilds the controller's state from its sources when ZooKeeper's data is lost: the table configs
 * copied beside the segments ({@link TableConfigCopies}), each table's current snapshot from its
 * catalog, and one listing per table of the segments present for its spec (segments are named per
 * data file and spec, so a present segment is the segment of that file). Each live file with a
 * segment gets a ready record; files without one are built when the node next serves the table.
 * Failed builds are not in the store and are not recovered: those files are tried again.
 *
 * <p>Run it with the node stopped; it overwrites the records it recovers.
 */
public final class StateRecovery {
  private StateRecovery() {}

  /** What was recovered of one table. */
  public record Recovered(String table, long snapshotId, int dataFiles, int segmentsFound) {}

  /**
   * @param catalogs the configured catalogs by name
   * @return one entry per table, in the order of the copies
   * @throws IOException when a source or ZooKeeper cannot be read or written; tables recovered
   *     before stay recovered
   */
  public static List<Recovered> recover(
      TableStateStore state, SegmentStore segments, Map<String, Catalog> catalogs)
      throws IOException {
    requireNonNull(state, "state is null");
    List<Recovered> recovered = new ArrayList<>();
    for (TableConfig config : new TableConfigCopies(segments).all()) {
      recovered.add(recover(state, segments, catalogs, config));
    }
    return recovered;
  }

  private static Recovered recover(
      TableStateStore state,
      SegmentStore segments,
      Map<String, Catalog> catalogs,
      TableConfig config)
      throws IOException {
    TableIdentity identity = config.identity();
    String name = identity.qualifiedName();
    Catalog catalog = catalogs.get(identity.catalog());
    if (catalog == null) {
      throw new IOException(
          "Cannot recover table %s: its catalog '%s' is not configured (configured: %s)"
              .formatted(name, identity.catalog(), String.join(", ", catalogs.keySet())));
    }
    Table table;
    SegmentSpec spec;
    TableSnapshot snapshot;
    try {
      table = catalog.loadTable(TableIdentifier.of(identity.namespace(), identity.name()));
      spec = SegmentSpec.from(config, table.schema());
      snapshot = TableSnapshot.current(table);
    } catch (ConfigException | org.apache.iceberg.exceptions.NoSuchTableException e) {
      throw new IOException("Cannot recover table " + name + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IOException(
          "Cannot recover table %s: cannot read it from catalog '%s': %s"
              .formatted(name, identity.catalog(), e.getMessage()),
          e);
    }
    Map<Location, Long> present = segments.list(spec);
    state.saveTable(config);
    int found = 0;
    for (DataFileInfo file : snapshot.dataFiles()) {
      Location location = segments.locationOf(spec, file.path(), file.fileSizeInBytes());
      Long size = present.get(location);
      if (size != null) {
        state.saveSegment(
            name,
            SegmentRecord.ready(
                file.path(), file.fileSizeInBytes(), spec.fingerprint(), location, size));
        found++;
      }
    }
    return new Recovered(
        name, snapshot.snapshotId().orElse(-1), snapshot.dataFiles().size(), found);
  }
}
