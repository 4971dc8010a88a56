package io.shelfmark.broker.query;

import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.List;

/**
 * Chooses the data files of a route that may hold rows matching a plan's filter, from metadata
 * alone (partition values, column statistics). Must be conservative: a file is left out only when
 * no row of it can match. Thread safe; no I/O.
 *
 * <p>The answer must depend on the plan and the route alone, and candidates must be files of the
 * route's snapshot in its order: the broker keeps it with a cached plan and reuses it while the
 * route is the same object.
 */
@FunctionalInterface
public interface FilePruning {
  /** Keeps every file: no pruning. */
  FilePruning NONE = (plan, route) -> route.snapshot().dataFiles();

  /** The files to query, in the route's order. */
  List<DataFileInfo> candidates(QueryPlan plan, TableRoute route);
}
