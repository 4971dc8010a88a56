package io.shelfmark.broker.routing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's routing table: the route of every served table, replaced whole when the controller
 * publishes a new one (a snapshot synced, a segment built), so a query sees one consistent route
 * from start to end and never a half-published snapshot. Doubles as the SQL planner's schema
 * provider. Thread safe; lookups never do I/O.
 */
public final class RoutingTable implements TableSchemaProvider {
  private final ConcurrentSkipListMap<String, TableRoute> routes = new ConcurrentSkipListMap<>();
  private final AtomicLong tablesVersion = new AtomicLong();

  /** Publishes (or replaces) the route of {@code route.table()}. */
  public void publish(TableRoute route) {
    requireNonNull(route, "route is null");
    TableRoute previous = routes.put(route.table().name().toString(), route);
    if (previous == null || !previous.table().equals(route.table())) {
      tablesVersion.incrementAndGet();
    }
  }

  /** Stops routing queries to the table. */
  public void remove(TableName name) {
    if (routes.remove(name.toString()) != null) {
      tablesVersion.incrementAndGet();
    }
  }

  /**
   * Changes whenever what the planner sees changes: a table published or removed, or a table's
   * columns replaced. A new snapshot or segment of an unchanged table keeps it, so a plan made at
   * one version is what planning the same SQL again would give while the version stays the same.
   */
  public long tablesVersion() {
    return tablesVersion.get();
  }

  /** The current route of the table the planner bound (its exact name). */
  public Optional<TableRoute> route(TableName name) {
    return Optional.ofNullable(routes.get(name.toString()));
  }

  @Override
  public Optional<BoundTable> table(TableName name) {
    TableRoute exact = routes.get(name.toString());
    if (exact != null) {
      return Optional.of(exact.table());
    }
    List<BoundTable> matches = new ArrayList<>();
    for (TableRoute route : routes.values()) {
      if (route.table().name().equalsIgnoreCase(name)) {
        matches.add(route.table());
      }
    }
    return matches.size() == 1 ? Optional.of(matches.getFirst()) : Optional.empty();
  }

  @Override
  public List<TableName> tableNames() {
    List<TableName> names = new ArrayList<>();
    for (TableRoute route : routes.values()) {
      names.add(route.table().name());
    }
    return names;
  }
}
