package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.SnapshotRoutes;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.CatalogException;
import io.shelfmark.catalog.snapshot.SnapshotHistory;
import io.shelfmark.catalog.snapshot.SnapshotSelector;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.exchange.error.QueryUnavailableException;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.SegmentRef;
import io.shelfmark.sql.SqlErrorKind;
import io.shelfmark.sql.SqlException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Time travel on a node that runs the server itself (all-in-one): the snapshot a query asks for is
 * found in the table's catalog ({@link SnapshotHistory}), its live files and deletes listed by
 * Iceberg's scan planning ({@link TableSnapshot#of}), and served by this node's server beside the
 * current snapshot ({@link LocalServer#servePast}): each file with its segment when the table still
 * has one for it (segments are kept per data file while the file is live in the served snapshot),
 * read directly from Parquet otherwise.
 *
 * <p>Reading a snapshot's manifests is what the query path otherwise never does, so each past route
 * is kept (the most recent {@link LocalServer#MAX_PAST_SNAPSHOTS}) while the served snapshot stays
 * the same: repeated queries on it read no metadata. A route is kept with the served snapshot it
 * was built beside, since moving on may retire the segments it uses. A query by {@code
 * asOfTimestamp} reads the table's metadata from the catalog (its history says which snapshot was
 * current then). Thread safe.
 */
final class PastSnapshotRoutes implements SnapshotRoutes {
  private static final Logger log = LoggerFactory.getLogger(PastSnapshotRoutes.class);

  private final TableRegistry registry;
  private final Map<String, Catalog> catalogs;
  private final LocalServer server;
  // The most recently used past routes, the least recently used dropped first.
  private final Map<Key, TableRoute> routes =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, TableRoute> eldest) {
              return size() > LocalServer.MAX_PAST_SNAPSHOTS;
            }
          });

  private record Key(String table, long snapshotId, long servedSnapshotId) {}

  PastSnapshotRoutes(TableRegistry registry, Map<String, Catalog> catalogs, LocalServer server) {
    this.registry = requireNonNull(registry, "registry is null");
    this.catalogs = Map.copyOf(requireNonNull(catalogs, "catalogs is null"));
    this.server = requireNonNull(server, "server is null");
  }

  @Override
  public TableRoute route(TableRoute current, SnapshotSelector selector) {
    requireNonNull(current, "current is null");
    requireNonNull(selector, "selector is null");
    String name = current.table().name().toString();
    if (selector instanceof SnapshotSelector.Id id) {
      if (id.snapshotId() == current.snapshotId()) {
        return current;
      }
      TableRoute kept = kept(name, id.snapshotId(), current);
      if (kept != null) {
        return kept;
      }
    }
    ServedTable served =
        registry
            .table(name)
            .orElseThrow(
                () ->
                    new SqlException(
                        SqlErrorKind.UNRESOLVED,
                        null,
                        "Cannot query table " + name + ": it stopped being served"));
    Table table = load(served.config().identity(), name);
    Snapshot snapshot;
    try {
      snapshot = SnapshotHistory.resolve(table, name, selector);
    } catch (CatalogException e) {
      throw new SqlException(SqlErrorKind.INVALID, null, e.getMessage());
    }
    if (snapshot.snapshotId() == current.snapshotId()) {
      return current;
    }
    TableRoute kept = kept(name, snapshot.snapshotId(), current);
    if (kept != null) {
      return kept;
    }
    TableRoute route = build(name, table, snapshot, current, served);
    routes.put(new Key(name, snapshot.snapshotId(), current.snapshotId()), route);
    return route;
  }

  /** The kept route of that snapshot, when built beside this served snapshot and still served. */
  private TableRoute kept(String name, long snapshotId, TableRoute current) {
    TableRoute kept = routes.get(new Key(name, snapshotId, current.snapshotId()));
    return kept != null && server.servesPast(name, snapshotId) ? kept : null;
  }

  private Table load(TableIdentity identity, String name) {
    Catalog catalog = catalogs.get(identity.catalog());
    if (catalog == null) {
      throw new QueryUnavailableException(
          "Cannot query a past snapshot of %s: its catalog '%s' is not configured on this node"
              .formatted(name, identity.catalog()),
          null);
    }
    try {
      return catalog.loadTable(TableIdentifier.of(identity.namespace(), identity.name()));
    } catch (RuntimeException e) {
      throw new QueryUnavailableException(
          "Cannot query a past snapshot of %s: its catalog '%s' cannot load the table: %s (the served snapshot still answers without snapshotId or asOfTimestamp)"
              .formatted(name, identity.catalog(), e.getMessage()),
          e);
    }
  }

  private TableRoute build(
      String name, Table table, Snapshot snapshot, TableRoute current, ServedTable served) {
    long started = System.nanoTime();
    TableSnapshot past;
    try {
      past = TableSnapshot.of(table, snapshot.snapshotId());
    } catch (RuntimeException e) {
      // Manifests removed with an expired snapshot, or unreadable: nothing of it can be answered.
      throw new UncheckedIOException(
          "Cannot query %s at snapshot %d: its file list cannot be read: %s (its metadata files may have been removed; ask for a snapshot the table keeps)"
              .formatted(name, snapshot.snapshotId(), e.getMessage()),
          new IOException(e));
    }
    Map<String, SegmentRef> ready = new HashMap<>();
    for (Map.Entry<String, SegmentState> entry : served.segments().entrySet()) {
      if (entry.getValue() instanceof SegmentState.Ready segment) {
        ready.put(entry.getKey(), new SegmentRef(segment.location(), segment.sizeInBytes()));
      }
    }
    Map<String, Segment> opened = server.servePast(name, current.schema(), past, ready);
    Map<String, SegmentRoute> segments = new HashMap<>();
    for (Map.Entry<String, Segment> entry : opened.entrySet()) {
      SegmentRoute known = current.segments().get(entry.getKey());
      if (known != null) {
        segments.put(entry.getKey(), known);
        continue;
      }
      SegmentRef ref = ready.get(entry.getKey());
      try {
        segments.put(
            entry.getKey(),
            new SegmentRoute(
                ref.location().toString(), ref.sizeInBytes(), entry.getValue().statistics()));
      } catch (IOException e) {
        log.warn(
            "Cannot read the statistics of segment {} (its file is not pruned on them): {}",
            ref.location(),
            e.getMessage());
      }
    }
    log.info(
        "Serving {} at past snapshot {} beside {}: {} data files, {} from segments ({} ms)",
        name,
        snapshot.snapshotId(),
        current.snapshotId(),
        past.dataFiles().size(),
        segments.size(),
        (System.nanoTime() - started) / 1_000_000);
    // Planned with the served schema: columns are matched to every file's fields by id, as they
    // are for the served snapshot's older files (a column added since reads as NULL).
    return new TableRoute(current.table(), current.schema(), table.specs(), past, segments);
  }
}
