package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.SegmentRef;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries what the controller publishes to the server and the broker in one process: each new
 * {@link ServedTable} is first served by the server (segments opened, deletes read), then published
 * to the broker's routing table with the statistics of the segments the server could open — so the
 * broker never routes to a segment the server does not hold.
 */
final class TableRoutes implements Consumer<ServedTable> {
  private static final Logger log = LoggerFactory.getLogger(TableRoutes.class);

  private final LocalServer server;
  private final RoutingTable routing;

  TableRoutes(LocalServer server, RoutingTable routing) {
    this.server = requireNonNull(server, "server is null");
    this.routing = requireNonNull(routing, "routing is null");
  }

  @Override
  public void accept(ServedTable table) {
    Map<String, SegmentRef> ready = new HashMap<>();
    for (Map.Entry<String, SegmentState> entry : table.segments().entrySet()) {
      if (entry.getValue() instanceof SegmentState.Ready segment) {
        ready.put(entry.getKey(), new SegmentRef(segment.location(), segment.sizeInBytes()));
      }
    }
    Map<String, Segment> opened =
        server.serve(table.sqlName(), table.schema(), table.snapshot(), ready);
    Map<String, SegmentRoute> segments = new HashMap<>();
    for (Map.Entry<String, Segment> entry : opened.entrySet()) {
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
    routing.publish(
        new TableRoute(
            IcebergSchemas.toBoundTable(TableName.parse(table.sqlName()), table.schema()),
            table.schema(),
            table.specs(),
            table.snapshot(),
            segments));
  }
}
