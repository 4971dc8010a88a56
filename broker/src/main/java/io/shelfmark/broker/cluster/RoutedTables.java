package io.shelfmark.broker.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableSchema;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.schema.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tables a broker of the distributed mode serves, as its routing table holds them: what the
 * controller last routed, seen from the broker. Indexing progress counts the files routed with a
 * segment; the controller's own status ({@code GET /tables/{name}} on its admin port) also has the
 * failures and what is still building.
 */
public final class RoutedTables implements TableDirectory {
  private final RoutingTable routing;

  public RoutedTables(RoutingTable routing) {
    this.routing = requireNonNull(routing, "routing is null");
  }

  @Override
  public List<TableStatus> tables() {
    List<TableStatus> tables = new ArrayList<>();
    for (TableName name : routing.tableNames()) {
      routing.route(name).map(RoutedTables::status).ifPresent(tables::add);
    }
    tables.sort(java.util.Comparator.comparing(TableStatus::name));
    return tables;
  }

  @Override
  public Optional<TableSchema> schema(String name) {
    return routing
        .route(TableName.parse(name))
        .map(route -> new TableSchema(name, route.table().columns(), Optional.empty()));
  }

  private static TableStatus status(TableRoute route) {
    long records = 0;
    long dataBytes = 0;
    long recordsIndexed = 0;
    long indexBytes = 0;
    for (DataFileInfo file : route.snapshot().dataFiles()) {
      records += file.recordCount();
      dataBytes += file.fileSizeInBytes();
      Optional<SegmentRoute> segment = route.segment(file);
      if (segment.isPresent()) {
        recordsIndexed += file.recordCount();
        indexBytes += segment.get().sizeInBytes();
      }
    }
    long files = route.snapshot().dataFiles().size();
    long ready = route.segments().size();
    return new TableStatus(
        route.table().name().toString(),
        ready == files ? TableStatus.SERVING : TableStatus.INDEXING,
        route.snapshotId(),
        files,
        records,
        dataBytes,
        recordsIndexed,
        ready,
        files - ready,
        0,
        0,
        indexBytes,
        "off",
        List.of());
  }
}
