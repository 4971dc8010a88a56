package io.shelfmark.catalog.snapshot;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.CatalogException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Reads one snapshot of a table from its catalog, as a process that did not follow the table itself
 * needs it: a server told to serve files of a snapshot, a broker told to route to one. The catalog
 * stays the source of truth for data; cluster state names only the snapshot.
 *
 * <p>Keeps the last snapshot read per table: every assignment and routing change of a table names a
 * snapshot, and most name the one before (a segment became ready, a server joined). Thread safe.
 */
public final class SnapshotLoader {
  private final Map<String, Catalog> catalogs;
  private final Map<String, Loaded> last = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param catalogs the configured catalogs, by name
   */
  public SnapshotLoader(Map<String, Catalog> catalogs) {
    this.catalogs = Map.copyOf(requireNonNull(catalogs, "catalogs is null"));
  }

  /**
   * One snapshot of a table with the schema it was written with and the table's partition specs.
   *
   * @param schema the snapshot's schema (the table's current one when the snapshot names none)
   */
  public record Loaded(Schema schema, Map<Integer, PartitionSpec> specs, TableSnapshot snapshot) {
    public Loaded {
      requireNonNull(schema, "schema is null");
      specs = Map.copyOf(requireNonNull(specs, "specs is null"));
      requireNonNull(snapshot, "snapshot is null");
    }

    /**
     * This snapshot with only the data files in {@code paths} (and the delete files they refer to):
     * what one server serves of it.
     */
    public Loaded only(Set<String> paths) {
      return new Loaded(
          schema,
          specs,
          new TableSnapshot(
              snapshot.table(),
              snapshot.snapshotId(),
              snapshot.committedAt(),
              snapshot.dataFiles().stream().filter(file -> paths.contains(file.path())).toList(),
              snapshot.deleteFiles().values()));
    }
  }

  /**
   * Snapshot {@code snapshotId} of {@code namespace.name} in catalog {@code catalog}; a table with
   * no snapshot when {@code snapshotId} is -1.
   *
   * @throws CatalogException naming the table when the catalog or table is unknown, or the snapshot
   *     expired
   */
  public Loaded load(String catalog, String namespace, String name, long snapshotId) {
    String key = catalog + "\u0000" + namespace + "\u0000" + name;
    Loaded cached = last.get(key);
    if (cached != null && cached.snapshot().snapshotId().orElse(-1) == snapshotId) {
      return cached;
    }
    Catalog source = catalogs.get(catalog);
    if (source == null) {
      throw new CatalogException(
          CatalogException.Reason.CONFIGURATION,
          "Cannot load table %s.%s: catalog '%s' is not configured here (configured: %s)"
              .formatted(namespace, name, catalog, String.join(", ", catalogs.keySet())));
    }
    Table table;
    try {
      table = source.loadTable(TableIdentifier.of(namespace, name));
    } catch (RuntimeException e) {
      throw new CatalogException(
          CatalogException.Reason.FAILED,
          "Cannot load table %s.%s from catalog '%s': %s"
              .formatted(namespace, name, catalog, e.getMessage()),
          e);
    }
    Loaded loaded;
    try {
      if (snapshotId < 0) {
        loaded = new Loaded(table.schema(), table.specs(), TableSnapshot.current(table));
      } else {
        TableSnapshot snapshot = TableSnapshot.of(table, snapshotId);
        Snapshot metadata = table.snapshot(snapshotId);
        Integer schemaId = metadata.schemaId();
        Schema schema =
            schemaId == null || !table.schemas().containsKey(schemaId)
                ? table.schema()
                : table.schemas().get(schemaId);
        loaded = new Loaded(schema, new LinkedHashMap<>(table.specs()), snapshot);
      }
    } catch (RuntimeException e) {
      throw new CatalogException(
          CatalogException.Reason.NOT_FOUND,
          "Cannot read snapshot %s of %s.%s: %s"
              .formatted(snapshotId, namespace, name, e.getMessage()),
          e);
    }
    last.put(key, loaded);
    return loaded;
  }
}
