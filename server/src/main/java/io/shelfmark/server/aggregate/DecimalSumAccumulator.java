package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.vector.Vector;
import java.math.BigDecimal;
import java.util.Arrays;

/** SUM/AVG of DECIMAL: exact BigDecimal sums (the precision check happens when finishing). */
final class DecimalSumAccumulator extends Accumulator {
  private BigDecimal[] sums = new BigDecimal[16];
  private long[] counts = new long[16];

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    if (counts.length < groupCount) {
      int size = grow(counts.length, groupCount);
      sums = Arrays.copyOf(sums, size);
      counts = Arrays.copyOf(counts, size);
    }
    for (int j = 0; j < n; j++) {
      BigDecimal value = argument.decimal(sel[j]);
      if (value != null) {
        int group = groups[j];
        sums[group] = sums[group] == null ? value : sums[group].add(value);
        counts[group]++;
      }
    }
  }

  @Override
  public AggregateState state(int group) {
    if (group >= counts.length || sums[group] == null) {
      return new AggregateState.DecimalSum(BigDecimal.ZERO, 0);
    }
    return new AggregateState.DecimalSum(sums[group], counts[group]);
  }
}
