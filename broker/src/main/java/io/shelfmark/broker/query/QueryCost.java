package io.shelfmark.broker.query;

import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.List;

/**
 * Estimates a query's cost from its plan and the files pruning kept, before any of them is read:
 * enough to pick its {@link QueryLane}. Stateless.
 *
 * <p>Cheap: a COUNT(*) without GROUP BY whose every file has a segment (servers answer it from the
 * segments' indexes when the filter is on indexed columns, and a filter on other columns still
 * reads only those columns' pages), or any query whose files hold at most {@code cheapMaxRows}
 * rows. Heavy: the rest, whose work grows with the rows read.
 */
public final class QueryCost {
  private QueryCost() {}

  /** The lane of {@code plan} over {@code files} of {@code route}. */
  public static QueryLane lane(
      QueryPlan plan, TableRoute route, List<DataFileInfo> files, long cheapMaxRows) {
    long rows = 0;
    for (DataFileInfo file : files) {
      rows += file.recordCount();
    }
    if (rows <= cheapMaxRows) {
      return QueryLane.CHEAP;
    }
    if (countOnly(plan)) {
      for (DataFileInfo file : files) {
        if (route.segment(file).isEmpty()) {
          return QueryLane.HEAVY;
        }
      }
      return QueryLane.CHEAP;
    }
    return QueryLane.HEAVY;
  }

  /** Whether the plan asks only for COUNT(*), without GROUP BY. */
  static boolean countOnly(QueryPlan plan) {
    if (!plan.aggregated() || !plan.groupKeys().isEmpty() || plan.aggregates().isEmpty()) {
      return false;
    }
    for (AggregateCall call : plan.aggregates()) {
      if (call.function() != AggregateFunction.COUNT_STAR) {
        return false;
      }
    }
    return true;
  }
}
