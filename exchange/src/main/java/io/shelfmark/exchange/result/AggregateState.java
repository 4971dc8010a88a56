package io.shelfmark.exchange.result;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.vector.Values;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * The partial state of one aggregate for one group, as servers exchange it: mergeable ({@link
 * #merge}) and plain data. Every state is immutable; merging returns a new one.
 */
public sealed interface AggregateState {
  /**
   * The HyperLogLog precision of DISTINCTCOUNTHLL: 2^12 registers, relative standard error about
   * 1.6% (1.04 / sqrt(4096)); Pinot's default log2m of 8 (6.5%) seemed too coarse for dashboards.
   */
  int HLL_LG_K = 12;

  AggregateState merge(AggregateState other);

  /**
   * The state of {@code call} over no rows: what a group no row reached holds (COUNT 0, SUM of
   * nothing, MIN/MAX null, an empty set or sketch). Finishing gives a query without GROUP BY over
   * no rows its one group from these, as the server's accumulators would.
   */
  static AggregateState empty(AggregateCall call) {
    SqlType type = call.argument().map(argument -> argument.type()).orElse(null);
    return switch (call.function()) {
      case COUNT_STAR, COUNT -> new Count(0);
      case SUM, AVG -> {
        if (type instanceof DecimalType) {
          yield new DecimalSum(BigDecimal.ZERO, 0);
        }
        yield Vector.isDoubleType(type) ? new DoubleSum(0, 0) : new LongSum(0, 0, 0);
      }
      case MIN -> new Extreme(null, false);
      case MAX -> new Extreme(null, true);
      case COUNT_DISTINCT -> new Distinct(new HashSet<>());
      case DISTINCT_COUNT_HLL -> new Hll(new HllSketch(HLL_LG_K, TgtHllType.HLL_4));
    };
  }

  /**
   * The merge of every state in {@code states} (at least one, all of one aggregate), as merging
   * them in turn gives; a COUNT(DISTINCT)'s sets are unioned into one set once instead of copied at
   * every step.
   */
  static AggregateState mergeAll(List<AggregateState> states) {
    if (states.size() > 1 && states.getFirst() instanceof Distinct) {
      Set<Object> union = new HashSet<>();
      for (AggregateState state : states) {
        union.addAll(((Distinct) state).values());
      }
      return new Distinct(union);
    }
    AggregateState merged = states.getFirst();
    for (int i = 1; i < states.size(); i++) {
      merged = merged.merge(states.get(i));
    }
    return merged;
  }

  /** COUNT(*) and COUNT(x). */
  record Count(long count) implements AggregateState {
    @Override
    public AggregateState merge(AggregateState other) {
      return new Count(count + ((Count) other).count);
    }
  }

  /**
   * SUM or AVG of integers: the exact 128-bit sum ({@code high}, {@code low} as unsigned) and the
   * count of non-null values. Partial sums are 128-bit so that an overflow of one partial that the
   * others cancel still gives the exact result.
   */
  record LongSum(long high, long low, long count) implements AggregateState {
    @Override
    public AggregateState merge(AggregateState other) {
      LongSum that = (LongSum) other;
      long sumLow = low + that.low;
      long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
      return new LongSum(high + that.high + carry, sumLow, count + that.count);
    }

    public BigInteger sum() {
      return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
    }
  }

  /** SUM or AVG of FLOAT/DOUBLE. */
  record DoubleSum(double sum, long count) implements AggregateState {
    @Override
    public AggregateState merge(AggregateState other) {
      DoubleSum that = (DoubleSum) other;
      return new DoubleSum(sum + that.sum, count + that.count);
    }
  }

  /** SUM or AVG of DECIMAL: the exact sum (zero when count is 0). */
  record DecimalSum(BigDecimal sum, long count) implements AggregateState {
    public DecimalSum {
      requireNonNull(sum, "sum is null");
    }

    @Override
    public AggregateState merge(AggregateState other) {
      DecimalSum that = (DecimalSum) other;
      return new DecimalSum(sum.add(that.sum), count + that.count);
    }
  }

  /** MIN or MAX: the boxed value, null when no non-null value was seen. */
  record Extreme(Object value, boolean max) implements AggregateState {
    @Override
    public AggregateState merge(AggregateState other) {
      Object that = ((Extreme) other).value;
      if (value == null) {
        return other;
      }
      if (that == null) {
        return this;
      }
      int compare = Values.compare(value, that);
      return (max ? compare >= 0 : compare <= 0) ? this : other;
    }
  }

  /**
   * COUNT(DISTINCT x): the distinct non-null values (boxed; doubles canonical, -0.0 as 0.0; binary
   * as read-only {@code ByteBuffer}s, which compare by content).
   */
  record Distinct(Set<Object> values) implements AggregateState {
    public Distinct {
      values = Set.copyOf(requireNonNull(values, "values is null"));
    }

    @Override
    public AggregateState merge(AggregateState other) {
      Set<Object> union = new HashSet<>(values);
      union.addAll(((Distinct) other).values);
      return new Distinct(union);
    }
  }

  /** DISTINCTCOUNTHLL(x): a HyperLogLog sketch of lgK {@link #HLL_LG_K}. */
  record Hll(HllSketch sketch) implements AggregateState {
    public Hll {
      requireNonNull(sketch, "sketch is null");
    }

    @Override
    public AggregateState merge(AggregateState other) {
      HllUnion union = new HllUnion(HLL_LG_K);
      union.update(sketch);
      union.update(((Hll) other).sketch);
      return new Hll(union.getResult(TgtHllType.HLL_4));
    }

    /**
     * The composite estimate: unlike {@code getEstimate()}, whose HIP estimator depends on the
     * order values arrived in (a sketch updated row by row and a union of partial sketches of the
     * same rows give different figures), it is a function of the registers alone, so every plan
     * (rows, star-tree records, any split into files) gives the same figure for the same rows.
     */
    public long estimate() {
      return Math.round(sketch.getCompositeEstimate());
    }
  }
}
