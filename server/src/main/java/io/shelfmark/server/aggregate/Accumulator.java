package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.StateColumn;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.SqlType;

/**
 * One aggregate's running values for every group of one file, in primitive arrays indexed by group
 * id. {@link #add} is the hot loop: it walks the selected rows of a batch, reads the argument from
 * its primitive array and updates the group's slot, with no per-row allocation (except where the
 * value itself is an object: DECIMAL sums, MIN/MAX of strings, distinct sets of objects). Not
 * thread safe: one per file execution.
 */
public abstract class Accumulator {
  /**
   * Adds the selected rows: row {@code sel[j]} of {@code argument} (null for COUNT(*)) belongs to
   * group {@code groups[j]}; {@code groupCount} groups exist so far.
   */
  public abstract void add(Vector argument, int[] sel, int[] groups, int n, int groupCount);

  /** The partial state of group {@code group}. */
  public abstract AggregateState state(int group);

  /**
   * The states of groups {@code [0, size)} as a column, handed over: the accumulator is not used
   * after. Primitive accumulators give their arrays; the others a state object per group.
   */
  public StateColumn column(int size) {
    AggregateState[] states = new AggregateState[size];
    for (int group = 0; group < size; group++) {
      states[group] = state(group);
    }
    return new StateColumn.States(states);
  }

  /** How many values this accumulator holds in sets over all groups (COUNT(DISTINCT)); else 0. */
  public long distinctValues() {
    return 0;
  }

  /** An accumulator for {@code call}. */
  public static Accumulator of(AggregateCall call) {
    SqlType type = call.argument().map(argument -> argument.type()).orElse(null);
    return switch (call.function()) {
      case COUNT_STAR -> new CountAccumulator(false);
      case COUNT -> new CountAccumulator(true);
      case SUM, AVG -> {
        if (type instanceof DecimalType) {
          yield new DecimalSumAccumulator();
        }
        yield Vector.isDoubleType(type) ? new DoubleSumAccumulator() : new LongSumAccumulator();
      }
      case MIN -> new ExtremeAccumulator(type, false);
      case MAX -> new ExtremeAccumulator(type, true);
      case COUNT_DISTINCT -> new DistinctAccumulator(type);
      case DISTINCT_COUNT_HLL -> new HllAccumulator(type);
    };
  }

  static int grow(int current, int needed) {
    return Math.max(needed, Math.max(16, current * 2));
  }
}
