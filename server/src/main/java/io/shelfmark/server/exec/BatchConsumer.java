package io.shelfmark.server.exec;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.vector.VectorInputs;

/** What one file's matching rows go into: an aggregation or a row collection. Not thread safe. */
interface BatchConsumer {
  /** Takes rows {@code sel[0..n)} of a batch of {@code size} rows. */
  void add(VectorInputs inputs, int size, int[] sel, int n);

  /** Whether further rows can no longer change the result (a LIMIT without ORDER BY is full). */
  boolean isSatisfied();

  /** The file's partial result. */
  PartialResult result(ExecutionStatistics statistics);
}
