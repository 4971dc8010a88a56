package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.StateColumn;
import io.shelfmark.exchange.vector.Vector;
import java.util.Arrays;

/** COUNT(*) (every selected row) or COUNT(x) (rows where x is not NULL). */
final class CountAccumulator extends Accumulator {
  private final boolean skipNulls;
  private long[] counts = new long[16];

  CountAccumulator(boolean skipNulls) {
    this.skipNulls = skipNulls;
  }

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    if (counts.length < groupCount) {
      counts = Arrays.copyOf(counts, grow(counts.length, groupCount));
    }
    boolean[] nulls = skipNulls ? argument.nulls() : null;
    if (nulls == null) {
      for (int j = 0; j < n; j++) {
        counts[groups[j]]++;
      }
    } else {
      for (int j = 0; j < n; j++) {
        if (!nulls[sel[j]]) {
          counts[groups[j]]++;
        }
      }
    }
  }

  /** Adds {@code count} rows to group {@code group} (COUNT(*) answered from a segment). */
  void addCount(int group, long count) {
    if (counts.length <= group) {
      counts = Arrays.copyOf(counts, grow(counts.length, group + 1));
    }
    counts[group] += count;
  }

  @Override
  public AggregateState state(int group) {
    return new StateColumn.Counts(counts).state(group);
  }

  @Override
  public StateColumn column(int size) {
    return new StateColumn.Counts(counts);
  }
}
