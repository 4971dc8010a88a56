package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.Vectors;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One aggregate's partial states for every group of a {@link GroupColumns}, indexed by group: the
 * primitive arrays a file's accumulator filled (counts, double sums, 128-bit integer sums), or
 * state objects for the aggregates whose states are objects anyway. Arrays may be longer than the
 * group count; a slot past their end is the state over no rows. Immutable once built: whoever
 * builds one hands its arrays over.
 */
public sealed interface StateColumn {
  /** The state of group {@code group}, as a state object. */
  AggregateState state(int group);

  /** The final values of {@code call} for groups {@code [0, size)}, in a vector of its type. */
  Vector finalValues(AggregateCall call, int size);

  /** An empty column of this kind to merge groups into ({@link Merged}), with room for some. */
  Merged merged(int capacity);

  /** COUNT(*) and COUNT(x). */
  record Counts(long[] counts) implements StateColumn {
    public Counts {
      requireNonNull(counts, "counts is null");
    }

    @Override
    public AggregateState state(int group) {
      return new AggregateState.Count(count(group));
    }

    long count(int group) {
      return group < counts.length ? counts[group] : 0;
    }

    @Override
    public Vector finalValues(AggregateCall call, int size) {
      long[] values = counts.length >= size ? counts : Arrays.copyOf(counts, size);
      return Vector.ofLongs(call.type(), size, values, null);
    }

    @Override
    public Merged merged(int capacity) {
      return new Merged() {
        long[] merged = new long[capacity];

        @Override
        public void put(int target, boolean first, StateColumn from, int group) {
          if (target >= merged.length) {
            merged = Arrays.copyOf(merged, Math.max(target + 1, merged.length * 2));
          }
          long count = ((Counts) from).count(group);
          merged[target] = first ? count : merged[target] + count;
        }

        @Override
        public StateColumn column() {
          return new Counts(merged);
        }
      };
    }
  }

  /** SUM and AVG of FLOAT or DOUBLE: the IEEE sum and the count of non-null values. */
  record DoubleSums(double[] sums, long[] counts) implements StateColumn {
    public DoubleSums {
      requireNonNull(sums, "sums is null");
      requireNonNull(counts, "counts is null");
    }

    @Override
    public AggregateState state(int group) {
      return group < counts.length
          ? new AggregateState.DoubleSum(sums[group], counts[group])
          : new AggregateState.DoubleSum(0, 0);
    }

    @Override
    public Vector finalValues(AggregateCall call, int size) {
      double[] values = new double[size];
      boolean[] nulls = null;
      boolean average = call.function() == AggregateFunction.AVG;
      for (int g = 0; g < size; g++) {
        long count = g < counts.length ? counts[g] : 0;
        if (count == 0) {
          if (nulls == null) {
            nulls = new boolean[size];
          }
          nulls[g] = true;
        } else {
          values[g] = average ? sums[g] / count : sums[g];
        }
      }
      return Vector.ofDoubles(call.type(), size, values, nulls);
    }

    @Override
    public Merged merged(int capacity) {
      return new Merged() {
        double[] sums = new double[capacity];
        long[] counts = new long[capacity];

        @Override
        public void put(int target, boolean first, StateColumn from, int group) {
          if (target >= counts.length) {
            int size = Math.max(target + 1, counts.length * 2);
            sums = Arrays.copyOf(sums, size);
            counts = Arrays.copyOf(counts, size);
          }
          DoubleSums source = (DoubleSums) from;
          double sum = group < source.counts.length ? source.sums[group] : 0;
          long count = group < source.counts.length ? source.counts[group] : 0;
          // In partial order, as merging the state objects in turn adds them: same IEEE result.
          sums[target] = first ? sum : sums[target] + sum;
          counts[target] = first ? count : counts[target] + count;
        }

        @Override
        public StateColumn column() {
          return new DoubleSums(sums, counts);
        }
      };
    }
  }

  /** SUM and AVG of integers: 128-bit sums ({@code high} signed, {@code low} unsigned), counts. */
  record LongSums(long[] high, long[] low, long[] counts) implements StateColumn {
    public LongSums {
      requireNonNull(high, "high is null");
      requireNonNull(low, "low is null");
      requireNonNull(counts, "counts is null");
    }

    @Override
    public AggregateState state(int group) {
      return group < counts.length
          ? new AggregateState.LongSum(high[group], low[group], counts[group])
          : new AggregateState.LongSum(0, 0, 0);
    }

    @Override
    public Vector finalValues(AggregateCall call, int size) {
      return boxedFinalValues(this, call, size);
    }

    @Override
    public Merged merged(int capacity) {
      return new Merged() {
        long[] high = new long[capacity];
        long[] low = new long[capacity];
        long[] counts = new long[capacity];

        @Override
        public void put(int target, boolean first, StateColumn from, int group) {
          if (target >= counts.length) {
            int size = Math.max(target + 1, counts.length * 2);
            high = Arrays.copyOf(high, size);
            low = Arrays.copyOf(low, size);
            counts = Arrays.copyOf(counts, size);
          }
          LongSums source = (LongSums) from;
          boolean present = group < source.counts.length;
          long addHigh = present ? source.high[group] : 0;
          long addLow = present ? source.low[group] : 0;
          long addCount = present ? source.counts[group] : 0;
          if (first) {
            high[target] = addHigh;
            low[target] = addLow;
            counts[target] = addCount;
          } else {
            long before = low[target];
            long after = before + addLow;
            low[target] = after;
            high[target] += addHigh + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
            counts[target] += addCount;
          }
        }

        @Override
        public StateColumn column() {
          return new LongSums(high, low, counts);
        }
      };
    }
  }

  /** Any other aggregate: its state objects (MIN/MAX, DECIMAL sums, distinct sets, sketches). */
  record States(AggregateState[] states) implements StateColumn {
    public States {
      requireNonNull(states, "states is null");
    }

    @Override
    public AggregateState state(int group) {
      return states[group];
    }

    @Override
    public Vector finalValues(AggregateCall call, int size) {
      return boxedFinalValues(this, call, size);
    }

    @Override
    public Merged merged(int capacity) {
      return new Merged() {
        AggregateState[] merged = new AggregateState[capacity];

        @Override
        public void put(int target, boolean first, StateColumn from, int group) {
          if (target >= merged.length) {
            merged = Arrays.copyOf(merged, Math.max(target + 1, merged.length * 2));
          }
          AggregateState state = from.state(group);
          merged[target] = first ? state : merged[target].merge(state);
        }

        @Override
        public StateColumn column() {
          return new States(merged);
        }
      };
    }
  }

  /**
   * Groups' states merged by target index: the first state of a target is put, later ones added.
   */
  interface Merged {
    void put(int target, boolean first, StateColumn from, int group);

    StateColumn column();
  }

  private static Vector boxedFinalValues(StateColumn column, AggregateCall call, int size) {
    List<Object> values = new ArrayList<>(size);
    for (int g = 0; g < size; g++) {
      values.add(ResultFinisher.finalValue(call, column.state(g)));
    }
    return Vectors.ofBoxed(call.type(), values);
  }
}
