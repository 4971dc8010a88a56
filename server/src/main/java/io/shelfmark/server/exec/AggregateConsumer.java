package io.shelfmark.server.exec;

import io.shelfmark.server.aggregate.Aggregator;
import io.shelfmark.server.result.ExecutionStatistics;
import io.shelfmark.server.result.PartialResult;
import io.shelfmark.server.vector.VectorInputs;
import io.shelfmark.sql.plan.QueryPlan;

/** The partial aggregation of one file's matching rows. */
final class AggregateConsumer implements BatchConsumer {
  private final Aggregator aggregator;

  AggregateConsumer(QueryPlan plan) {
    this.aggregator = new Aggregator(plan);
  }

  @Override
  public void add(VectorInputs inputs, int size, int[] sel, int n) {
    aggregator.add(inputs, size, sel, n);
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
