package io.shelfmark.broker.prune;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts pruning evaluations that failed (the {@code pruning_evaluation_errors} metric): a failure
 * never fails the query, it only leaves the unit unpruned. Thread safe.
 */
public final class PruningErrors {
  private final AtomicLong count = new AtomicLong();

  void record() {
    count.incrementAndGet();
  }

  /** Evaluations that failed so far. */
  public long count() {
    return count.get();
  }
}
