package io.shelfmark.broker.query;

import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.sql.plan.QueryPlan;
import java.time.Instant;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Runs the server part of a plan over chosen data files of a route and returns their merged partial
 * result: in the same process today, scattered over servers in the distributed mode.
 *
 * <p>Implementations are thread safe and honour the deadline: past it they stop and throw the
 * server's timeout exception. Failures are the server's {@code QueryException}s (each with an error
 * code) or, for storage and corrupt files, exceptions naming the file.
 */
@FunctionalInterface
public interface QueryDispatcher {
  /**
   * @param deadline when the query times out
   * @param cancelled true once the client gave up; polled with the deadline
   */
  Dispatched execute(
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled);

  /**
   * As {@link #execute(QueryPlan, TableRoute, List, Instant, BooleanSupplier)}, for a query
   * admitted to {@code lane} and bounded by {@code limits}; a dispatcher that runs every lane alike
   * and bounds nothing may ignore both (the default).
   */
  default Dispatched execute(
      QueryPlan plan,
      TableRoute route,
      List<DataFileInfo> files,
      Instant deadline,
      BooleanSupplier cancelled,
      QueryLane lane,
      QueryLimits limits) {
    return execute(plan, route, files, deadline, cancelled);
  }

  /**
   * The servers' merged partial result and what answering it cost in object storage: requests and
   * bytes that reached the store (cache hits excluded), and the page cache's hits and misses.
   */
  record Dispatched(
      PartialResult partial,
      long storageRequests,
      long storageBytesRead,
      long cacheHits,
      long cacheMisses) {
    public Dispatched {
      java.util.Objects.requireNonNull(partial, "partial is null");
    }
  }
}
