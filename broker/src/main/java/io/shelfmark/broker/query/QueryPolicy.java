package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.error.QueryResourceException;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.plan.QueryPlan;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * How the broker admits and bounds queries: the admission lanes, the row count under which any
 * query is cheap, the servers' per-query limits and the longest IN list.
 *
 * @param admission the node's lanes of running and queued queries
 * @param cheapMaxRows queries over files of at most this many rows take the cheap lane ({@code
 *     query.cheap.max-rows})
 * @param limits how large a query's state may grow on a server
 * @param maxInListItems items of one IN list ({@code query.max-in-list-items})
 * @param heavyThreads runs an admitted heavy query's dispatch and finishing: merging and sorting a
 *     few hundred thousand groups is CPU work that, on a virtual thread, holds a carrier for
 *     hundreds of milliseconds and every cheap query's virtual thread with it; platform threads are
 *     time-sliced by the OS
 */
public record QueryPolicy(
    QueryAdmission admission,
    long cheapMaxRows,
    QueryLimits limits,
    int maxInListItems,
    Executor heavyThreads) {
  public static final String MAX_IN_LIST_ITEMS_KEY = "query.max-in-list-items";

  public QueryPolicy {
    requireNonNull(admission, "admission is null");
    requireNonNull(limits, "limits is null");
    requireNonNull(heavyThreads, "heavyThreads is null");
    if (cheapMaxRows < 0 || maxInListItems < 1) {
      throw new IllegalArgumentException(
          "Cannot bound queries by %d cheap rows and %d IN items (at least 0 and 1)"
              .formatted(cheapMaxRows, maxInListItems));
    }
  }

  /** Heavy queries in the caller's thread. */
  public QueryPolicy(
      QueryAdmission admission, long cheapMaxRows, QueryLimits limits, int maxInListItems) {
    this(admission, cheapMaxRows, limits, maxInListItems, Runnable::run);
  }

  /** Every query admitted at once, with the default server limits. */
  public static QueryPolicy unbounded(Clock clock) {
    return new QueryPolicy(
        QueryAdmission.unbounded(clock), 0, QueryLimits.defaults(), Integer.MAX_VALUE);
  }

  /** Fails with RESOURCE_EXHAUSTED when an IN list of the filter has more items than allowed. */
  void checkInLists(QueryPlan plan) {
    plan.filter().ifPresent(this::checkInLists);
  }

  private void checkInLists(Expression expression) {
    if (expression instanceof InList in && in.items().size() > maxInListItems) {
      throw new QueryResourceException(
          "Cannot filter on an IN list of %d items: more than %d (raise %s or filter on a range)"
              .formatted(in.items().size(), maxInListItems, MAX_IN_LIST_ITEMS_KEY));
    }
    for (Expression child : expression.children()) {
      checkInLists(child);
    }
  }
}
