package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.StateColumn;
import io.shelfmark.exchange.vector.Vector;
import java.util.Arrays;

/** SUM/AVG of FLOAT or DOUBLE: IEEE sums in row order per file. */
final class DoubleSumAccumulator extends Accumulator {
  private double[] sums = new double[16];
  private long[] counts = new long[16];

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    if (counts.length < groupCount) {
      int size = grow(counts.length, groupCount);
      sums = Arrays.copyOf(sums, size);
      counts = Arrays.copyOf(counts, size);
    }
    double[] values = argument.doubles();
    boolean[] nulls = argument.nulls();
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (nulls == null || !nulls[row]) {
        sums[groups[j]] += values[row];
        counts[groups[j]]++;
      }
    }
  }

  @Override
  public AggregateState state(int group) {
    return new StateColumn.DoubleSums(sums, counts).state(group);
  }

  @Override
  public StateColumn column(int size) {
    return new StateColumn.DoubleSums(sums, counts);
  }
}
