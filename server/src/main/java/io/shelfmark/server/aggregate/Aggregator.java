package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.result.GroupColumns;
import io.shelfmark.exchange.result.StateColumn;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * The partial aggregation of one file: group keys and aggregate arguments evaluated a batch at a
 * time, group ids from the {@link GroupTable}, then each {@link Accumulator}'s loop over the
 * selected rows. Not thread safe: one per file execution.
 */
public final class Aggregator {
  private final List<Expression> keys;
  private final List<AggregateCall> aggregates;
  private final GroupTable groups;
  private final List<Accumulator> accumulators = new ArrayList<>();
  // Sized by the first batch: a file's aggregator that never sees a batch (a count from the
  // indexes) allocates none; one up-front int[1024] per file was a fifth of a busy node's garbage.
  private int[] groupIds = new int[0];

  public Aggregator(QueryPlan plan) {
    this.keys = plan.groupKeys();
    this.aggregates = plan.aggregates();
    this.groups = new GroupTable(keys);
    for (AggregateCall aggregate : aggregates) {
      accumulators.add(Accumulator.of(aggregate));
    }
  }

  /** How many groups the rows added so far formed. */
  public int groupCount() {
    return keys.isEmpty() ? 1 : groups.groupCount();
  }

  /** The most values one COUNT(DISTINCT) holds so far, over all its groups; 0 without one. */
  public long maxDistinctValues() {
    long max = 0;
    for (Accumulator accumulator : accumulators) {
      max = Math.max(max, accumulator.distinctValues());
    }
    return max;
  }

  /** Adds rows {@code sel[0..n)} of a batch of {@code size} rows. */
  public void add(VectorInputs inputs, int size, int[] sel, int n) {
    if (n == 0) {
      return;
    }
    if (groupIds.length < n) {
      groupIds = new int[Math.max(n, groupIds.length * 2)];
    }
    groups.groupIds(inputs, size, sel, n, groupIds);
    int groupCount = groups.groupCount();
    for (int i = 0; i < aggregates.size(); i++) {
      Vector argument =
          aggregates.get(i).argument().isPresent()
              ? VectorEvaluator.evaluate(aggregates.get(i).argument().get(), inputs, size)
              : null;
      accumulators.get(i).add(argument, sel, groupIds, n, groupCount);
    }
  }

  /**
   * Adds {@code count} rows to the single group of a query without GROUP BY whose aggregates are
   * all COUNT(*): the segment-only answer, no vectors at all.
   */
  public void addCountStar(long count) {
    if (!keys.isEmpty()) {
      throw new IllegalStateException("Cannot add a bare count to a grouped aggregation");
    }
    for (Accumulator accumulator : accumulators) {
      ((CountAccumulator) accumulator).addCount(0, count);
    }
  }

  /**
   * The groups seen, with their partial states, as columns ({@link GroupColumns}): the key vectors
   * and the accumulators' arrays, handed over. The aggregator is not used after.
   */
  public List<Group> groups() {
    int count = keys.isEmpty() ? 1 : groups.groupCount();
    List<Vector> keyVectors = new ArrayList<>(keys.size());
    for (int k = 0; k < keys.size(); k++) {
      keyVectors.add(groups.keyVector(k, count));
    }
    List<StateColumn> states = new ArrayList<>(accumulators.size());
    for (Accumulator accumulator : accumulators) {
      states.add(accumulator.column(count));
    }
    return new GroupColumns(count, keyVectors, states);
  }
}
