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

  /**
   * The candidates with why the others were left out (EXPLAIN). The default says only how many: a
   * pruning that knows its steps says which step and which WHERE term pruned each file.
   */
  default PruningReport explain(QueryPlan plan, TableRoute route) {
    List<DataFileInfo> files = route.snapshot().dataFiles();
    List<DataFileInfo> kept = candidates(plan, route);
    int pruned = files.size() - kept.size();
    return new PruningReport(
        kept,
        files.size(),
        files.size(),
        kept.size(),
        pruned == 0
            ? List.of()
            : List.of(new PruningReport.Reason(PruningReport.Step.STATISTICS, "", pruned)));
  }
}
