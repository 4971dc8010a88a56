package io.shelfmark.server.exec;

import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.server.aggregate.Aggregator;
import io.shelfmark.sql.plan.QueryPlan;

/** The partial aggregation of one file's matching rows. */
final class AggregateConsumer implements BatchConsumer {
  private final Aggregator aggregator;
  private final QueryLimits limits;

  AggregateConsumer(QueryPlan plan, QueryLimits limits) {
    this.aggregator = new Aggregator(plan);
    this.limits = limits;
  }

  @Override
  public void add(VectorInputs inputs, int size, int[] sel, int n) {
    aggregator.add(inputs, size, sel, n);
    // After each batch: a batch adds at most its rows, so the state overshoots a limit by one
    // batch at most before the query is refused.
    limits.checkGroups(aggregator.groupCount());
    limits.checkDistinctValues(aggregator.maxDistinctValues());
  }

  /** The segment-only answer of COUNT(*) without GROUP BY: {@code count} matching rows. */
  void addCountStar(long count) {
    aggregator.addCountStar(count);
  }

  @Override
  public boolean isSatisfied() {
    return false;
  }

  @Override
  public PartialResult result(ExecutionStatistics statistics) {
    return PartialResult.ofGroups(aggregator.groups(), statistics);
  }
}
