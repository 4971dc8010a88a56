package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.StateColumn;
import io.shelfmark.exchange.vector.Vector;
import java.util.Arrays;

/**
 * SUM/AVG of INT or LONG in 128 bits per group: {@code high} (signed) and {@code low} (unsigned);
 * adding a value sign-extends it and carries out of the low word.
 */
final class LongSumAccumulator extends Accumulator {
  private long[] high = new long[16];
  private long[] low = new long[16];
  private long[] counts = new long[16];

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    if (counts.length < groupCount) {
      int size = grow(counts.length, groupCount);
      high = Arrays.copyOf(high, size);
      low = Arrays.copyOf(low, size);
      counts = Arrays.copyOf(counts, size);
    }
    long[] values = argument.longs();
    boolean[] nulls = argument.nulls();
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (nulls != null && nulls[row]) {
        continue;
      }
      int group = groups[j];
      long value = values[row];
      long before = low[group];
      long after = before + value;
      low[group] = after;
      high[group] += (value >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
      counts[group]++;
    }
  }

  @Override
  public AggregateState state(int group) {
    return new StateColumn.LongSums(high, low, counts).state(group);
  }

  @Override
  public StateColumn column(int size) {
    return new StateColumn.LongSums(high, low, counts);
  }
}
