package io.shelfmark.server.exec;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.segment.startree.StarTree;
import io.shelfmark.server.aggregate.KeyValues;
import io.shelfmark.server.aggregate.LongIntMap;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.ValueOrder;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.AggregateFunction;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * The groups of a star-tree answer, accumulated in primitive arrays: a group is found by its key
 * dimensions' ids packed into one long (mixed radix), its states are per aggregate columns of longs
 * and doubles indexed by group, and the boxed key values and {@link AggregateState}s are made once
 * per group at the end. Q3 makes 3,600 groups of one record each: a list key, a hash of boxed
 * values and a state object per record were most of its answer's time.
 *
 * <p>The states equal what merging each record's state in visit order gives (sums added in the same
 * order; MIN/MAX keep the first of equal values; DISTINCTCOUNTHLL unions the records' sketches).
 * Single use, not thread safe.
 */
final class TreeGroups implements StarTree.RecordVisitor {
  private final StarTree tree;
  private final QueryPlan plan;
  private final int[] keyDimensions;
  private final long[] radix;
  private final LongIntMap slots;
  private final Column[] columns;
  private long docs;
  private int groups;

  private TreeGroups(
      QueryPlan plan, StarTree tree, int[] keyDimensions, int[] metrics, long[] radix) {
    this.tree = tree;
    this.plan = plan;
    this.keyDimensions = keyDimensions;
    this.radix = radix;
    this.slots = new LongIntMap(64);
    List<AggregateCall> calls = plan.aggregates();
    this.columns = new Column[calls.size()];
    for (int a = 0; a < columns.length; a++) {
      columns[a] = new Column(calls.get(a), metrics[a]);
    }
  }

  /**
   * Groups for {@code plan} over {@code tree}, or empty when the key dimensions' id counts do not
   * pack into a long (then the caller groups boxed keys).
   *
   * @param metrics per aggregate, the tree metric it reads (-1 for COUNT(*))
   */
  static Optional<TreeGroups> of(
      QueryPlan plan, StarTree tree, int[] keyDimensions, int[] metrics) {
    long[] radix = new long[keyDimensions.length];
    long product = 1;
    for (int k = keyDimensions.length - 1; k >= 0; k--) {
      radix[k] = product;
      long ids = tree.idCount(keyDimensions[k]);
      if (ids > 0 && product > Long.MAX_VALUE / ids) {
        return Optional.empty();
      }
      product *= Math.max(1, ids);
    }
    return Optional.of(new TreeGroups(plan, tree, keyDimensions, metrics, radix));
  }

  @Override
  public void record(int record) {
    long key = 0;
    for (int k = 0; k < keyDimensions.length; k++) {
      key += tree.id(record, keyDimensions[k]) * radix[k];
    }
    int slot = slots.getOrAdd(key);
    if (slot == groups) {
      groups++;
      for (Column column : columns) {
        column.add(slot, record);
      }
    } else {
      for (Column column : columns) {
        column.merge(slot, record);
      }
    }
    docs += tree.count(record);
  }

  /** The rows the visited records aggregate. */
  long docs() {
    return docs;
  }

  /** The groups, in order of first appearance, with their partial states. */
  List<Group> groups() {
    List<Group> out = new ArrayList<>(Math.max(groups, 1));
    if (keyDimensions.length == 0 && groups == 0) {
      // Without GROUP BY there is one group even over no rows, as the row path gives.
      List<AggregateState> empty = new ArrayList<>();
      plan.aggregates().forEach(call -> empty.add(AggregateState.empty(call)));
      out.add(new Group(List.of(), empty));
      return out;
    }
    long[] keys = slots.keys();
    for (int slot = 0; slot < groups; slot++) {
      Object[] key = new Object[keyDimensions.length];
      long rest = keys[slot];
      for (int k = 0; k < keyDimensions.length; k++) {
        int id = (int) (rest / radix[k]);
        rest -= id * radix[k];
        Object raw = tree.value(keyDimensions[k], id);
        key[k] = KeyValues.box(plan.groupKeys().get(k).type(), raw);
      }
      AggregateState[] states = new AggregateState[columns.length];
      for (int a = 0; a < columns.length; a++) {
        states[a] = columns[a].state(slot);
      }
      // The arrays are handed over: no defensive copies.
      out.add(Group.owning(key, states));
    }
    return out;
  }

  /** One aggregate's states by group. */
  private final class Column {
    private final AggregateFunction function;
    private final int metric;
    private final SqlType type;
    private final boolean floating;
    private final boolean max;
    // COUNT(*) and COUNT: the count; SUM/AVG: the non-null count; MIN/MAX: the non-null count.
    private long[] count = new long[64];
    // SUM/AVG of integers: the 128-bit sum's words; MIN/MAX of integers: the extreme in low.
    private long[] high;
    private long[] low;
    // SUM/AVG and MIN/MAX of floating-point values.
    private double[] sum;
    // DISTINCTCOUNTHLL: the union of the group's records' sketches (null: no value yet).
    private HllUnion[] unions;

    Column(AggregateCall call, int metric) {
      this.function = call.function();
      this.metric = metric;
      this.type = call.argument().map(Expression::type).orElse(null);
      this.floating = type != null && Vector.isDoubleType(type);
      this.max = function == AggregateFunction.MAX;
      switch (function) {
        case COUNT_STAR, COUNT -> {}
        case DISTINCT_COUNT_HLL -> unions = new HllUnion[64];
        case SUM, AVG, MIN, MAX -> {
          if (floating) {
            sum = new double[64];
          } else {
            high = new long[64];
            low = new long[64];
          }
        }
        default -> throw new IllegalStateException("Cannot answer " + call + " from a star-tree");
      }
    }

    void add(int slot, int record) {
      if (slot == count.length) {
        int size = slot * 2;
        count = Arrays.copyOf(count, size);
        high = high == null ? null : Arrays.copyOf(high, size);
        low = low == null ? null : Arrays.copyOf(low, size);
        sum = sum == null ? null : Arrays.copyOf(sum, size);
        unions = unions == null ? null : Arrays.copyOf(unions, size);
      }
      switch (function) {
        case COUNT_STAR -> count[slot] = tree.count(record);
        case DISTINCT_COUNT_HLL -> merge(slot, record);
        case COUNT -> count[slot] = tree.nonNull(record, metric);
        case SUM, AVG -> {
          count[slot] = tree.nonNull(record, metric);
          if (floating) {
            sum[slot] = tree.doubleSum(record, metric);
          } else {
            high[slot] = tree.sumHigh(record, metric);
            low[slot] = tree.sumLow(record, metric);
          }
        }
        default -> {
          count[slot] = tree.nonNull(record, metric);
          if (floating) {
            sum[slot] = extreme(record);
          } else {
            low[slot] = max ? tree.longMax(record, metric) : tree.longMin(record, metric);
          }
        }
      }
    }

    void merge(int slot, int record) {
      switch (function) {
        case COUNT_STAR -> count[slot] += tree.count(record);
        case DISTINCT_COUNT_HLL -> {
          HllSketch sketch = tree.sketch(record, metric);
          if (sketch != null) {
            if (unions[slot] == null) {
              unions[slot] = new HllUnion(AggregateState.HLL_LG_K);
            }
            unions[slot].update(sketch);
          }
        }
        case COUNT -> count[slot] += tree.nonNull(record, metric);
        case SUM, AVG -> {
          count[slot] += tree.nonNull(record, metric);
          if (floating) {
            sum[slot] += tree.doubleSum(record, metric);
          } else {
            long add = tree.sumLow(record, metric);
            long total = low[slot] + add;
            long carry = Long.compareUnsigned(total, low[slot]) < 0 ? 1 : 0;
            high[slot] += tree.sumHigh(record, metric) + carry;
            low[slot] = total;
          }
        }
        default -> {
          long nonNull = tree.nonNull(record, metric);
          if (nonNull == 0) {
            return;
          }
          boolean had = count[slot] > 0;
          count[slot] += nonNull;
          // Equal values keep the first, as AggregateState.Extreme's merge does.
          if (floating) {
            double value = extreme(record);
            int compare = ValueOrder.compareFloating(value, sum[slot]);
            if (!had || (max ? compare > 0 : compare < 0)) {
              sum[slot] = value;
            }
          } else {
            long value = max ? tree.longMax(record, metric) : tree.longMin(record, metric);
            if (!had || (max ? value > low[slot] : value < low[slot])) {
              low[slot] = value;
            }
          }
        }
      }
    }

    private double extreme(int record) {
      return max ? tree.doubleMax(record, metric) : tree.doubleMin(record, metric);
    }

    AggregateState state(int slot) {
      return switch (function) {
        case COUNT_STAR, COUNT -> new AggregateState.Count(count[slot]);
        case DISTINCT_COUNT_HLL ->
            new AggregateState.Hll(
                unions[slot] == null
                    ? new HllSketch(AggregateState.HLL_LG_K, TgtHllType.HLL_4)
                    : unions[slot].getResult(TgtHllType.HLL_4));
        case SUM, AVG ->
            floating
                ? new AggregateState.DoubleSum(sum[slot], count[slot])
                : new AggregateState.LongSum(high[slot], low[slot], count[slot]);
        default -> {
          if (count[slot] == 0) {
            yield new AggregateState.Extreme(null, max);
          }
          Object raw = floating ? (Object) sum[slot] : (Object) low[slot];
          yield new AggregateState.Extreme(KeyValues.box(type, raw), max);
        }
      };
    }
  }
}
