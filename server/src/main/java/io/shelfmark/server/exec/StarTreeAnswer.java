package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.result.Group;
import io.shelfmark.exchange.vector.Values;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.segment.startree.StarTree;
import io.shelfmark.segment.startree.StarTreeSketch;
import io.shelfmark.server.aggregate.KeyValues;
import io.shelfmark.sql.expression.Between;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.Comparison;
import io.shelfmark.sql.expression.ComparisonOperator;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.IsNull;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.MapKeyRef;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;

/**
 * Answers an aggregation over one segment's file from one of its star-trees, when the query fits
 * it: every filter term an equality, IN, range or IS NULL on a tree dimension (a range on a
 * timestamp column whose time bucket is a dimension counts: the buckets it covers whole come from
 * the tree, the rows of the buckets it cuts come from the normal path as {@link #edges()}), every
 * GROUP BY key a tree dimension, every aggregate COUNT(*) or COUNT/SUM/AVG/MIN/MAX of a tree
 * metric, or DISTINCTCOUNTHLL of a tree sketch column (of the SQL function's lgK, over a column
 * hashed as the row path hashes it). The caller checks that no deletes apply to the file: the
 * records count every row.
 *
 * <p>Partial states are the ones the row path produces for the same rows (128-bit LONG sums, MIN
 * and MAX boxed in the column's type, group keys in the key's type, a DISTINCTCOUNTHLL's sketch the
 * union of the records' sketches, whose registers equal those of a sketch over the rows), so the
 * results merge with other files' as theirs do. Doubles are summed in another order than the rows'
 * (the last digits may differ, as between any two plans).
 */
final class StarTreeAnswer {
  /** An inclusive range of a timestamp column the tree does not answer: its rows are read. */
  record Edge(ColumnRef column, long low, long high) {}

  private final StarTree tree;
  private final List<Group> groups;
  private final long docs;
  private final List<Edge> edges;
  private final long records;

  private StarTreeAnswer(
      StarTree tree, List<Group> groups, long docs, List<Edge> edges, long records) {
    this.tree = tree;
    this.groups = groups;
    this.docs = docs;
    this.edges = edges;
    this.records = records;
  }

  /** The tree records the traversal aggregated (EXPLAIN ANALYZE reports them). */
  long records() {
    return records;
  }

  /** The groups the tree's records give, with partial states. */
  List<Group> groups() {
    return groups;
  }

  /** The rows those groups aggregate. */
  long docs() {
    return docs;
  }

  /** Ranges of rows left to the normal path (unaligned time edges); empty when none. */
  List<Edge> edges() {
    return edges;
  }

  StarTree tree() {
    return tree;
  }

  /** The answer from the first of {@code trees} that fits {@code plan}, if any does. */
  static Optional<StarTreeAnswer> answer(QueryPlan plan, List<StarTree> trees) {
    requireNonNull(plan, "plan is null");
    if (!plan.aggregated()) {
      return Optional.empty();
    }
    for (StarTree tree : trees) {
      Optional<StarTreeAnswer> answer = new Matcher(plan, tree).answer();
      if (answer.isPresent()) {
        return answer;
      }
    }
    return Optional.empty();
  }

  /** Matches one plan against one tree; single use. */
  private static final class Matcher {
    private final QueryPlan plan;
    private final StarTree tree;
    private final int arity;
    private final boolean[][] allowed;
    private final boolean[] grouped;
    private final List<Edge> edges = new ArrayList<>();
    // Per timestamp column with a bucket dimension: the inclusive range the filter keeps.
    private final Map<ColumnRef, long[]> timeRanges = new LinkedHashMap<>();

    Matcher(QueryPlan plan, StarTree tree) {
      this.plan = plan;
      this.tree = tree;
      this.arity = tree.dimensions().size();
      this.allowed = new boolean[arity][];
      this.grouped = new boolean[arity];
    }

    Optional<StarTreeAnswer> answer() {
      int[] keyDimensions = new int[plan.groupKeys().size()];
      for (int k = 0; k < keyDimensions.length; k++) {
        Optional<Integer> dimension = dimensionOf(plan.groupKeys().get(k));
        if (dimension.isEmpty()) {
          return Optional.empty();
        }
        keyDimensions[k] = dimension.get();
        grouped[dimension.get()] = true;
      }
      int[] metrics = new int[plan.aggregates().size()];
      for (int a = 0; a < metrics.length; a++) {
        Optional<Integer> metric = metricOf(plan.aggregates().get(a));
        if (metric.isEmpty()) {
          return Optional.empty();
        }
        metrics[a] = metric.get();
      }
      for (Expression term : plan.filterConjuncts()) {
        if (!constrain(term)) {
          return Optional.empty();
        }
      }
      if (!constrainTime()) {
        return Optional.empty();
      }
      return aggregate(keyDimensions, metrics);
    }

    /**
     * Empty when the traversal meets a rolled-up record (a sparse combination's last dimension
     * aggregated away) while the query filters or groups by that dimension: the rows answer this
     * file then.
     */
    private Optional<StarTreeAnswer> aggregate(int[] keyDimensions, int[] metrics) {
      Optional<TreeGroups> primitive = TreeGroups.of(plan, tree, keyDimensions, metrics);
      if (primitive.isPresent()) {
        long records = tree.traverseIfAnswers(allowed, grouped, primitive.get());
        if (records < 0) {
          return Optional.empty();
        }
        return Optional.of(
            new StarTreeAnswer(
                tree,
                primitive.get().groups(),
                primitive.get().docs(),
                List.copyOf(edges),
                records));
      }
      if (!tree.answers(allowed, grouped)) {
        return Optional.empty();
      }
      return Optional.of(aggregateBoxed(keyDimensions, metrics));
    }

    /** Groups by boxed key values: for keys whose ids do not pack into a long. */
    private StarTreeAnswer aggregateBoxed(int[] keyDimensions, int[] metrics) {
      List<AggregateCall> calls = plan.aggregates();
      Map<List<Object>, AggregateState[]> states = new HashMap<>();
      List<List<Object>> order = new ArrayList<>();
      long[] docs = new long[1];
      long records =
          tree.traverse(
              allowed,
              grouped,
              record -> {
                List<Object> key = new ArrayList<>(keyDimensions.length);
                for (int k = 0; k < keyDimensions.length; k++) {
                  int d = keyDimensions[k];
                  Object raw = tree.value(d, tree.id(record, d));
                  key.add(KeyValues.box(plan.groupKeys().get(k).type(), raw));
                }
                AggregateState[] row = new AggregateState[calls.size()];
                for (int a = 0; a < calls.size(); a++) {
                  row[a] = state(calls.get(a), metrics[a], record);
                }
                AggregateState[] known = states.get(key);
                if (known == null) {
                  states.put(key, row);
                  order.add(key);
                } else {
                  for (int a = 0; a < row.length; a++) {
                    known[a] = known[a].merge(row[a]);
                  }
                }
                docs[0] += tree.count(record);
              });
      List<Group> groups = new ArrayList<>();
      if (keyDimensions.length == 0 && order.isEmpty()) {
        // Without GROUP BY there is one group even over no rows, as the row path gives.
        List<AggregateState> empty = new ArrayList<>();
        calls.forEach(call -> empty.add(AggregateState.empty(call)));
        groups.add(new Group(List.of(), empty));
      }
      for (List<Object> key : order) {
        groups.add(new Group(key, List.of(states.get(key))));
      }
      return new StarTreeAnswer(tree, groups, docs[0], List.copyOf(edges), records);
    }

    private AggregateState state(AggregateCall call, int metric, int record) {
      SqlType type = call.argument().map(Expression::type).orElse(null);
      return switch (call.function()) {
        case COUNT_STAR -> new AggregateState.Count(tree.count(record));
        case COUNT -> new AggregateState.Count(tree.nonNull(record, metric));
        case SUM, AVG ->
            Vector.isDoubleType(type)
                ? new AggregateState.DoubleSum(
                    tree.doubleSum(record, metric), tree.nonNull(record, metric))
                : new AggregateState.LongSum(
                    tree.sumHigh(record, metric),
                    tree.sumLow(record, metric),
                    tree.nonNull(record, metric));
        case MIN, MAX -> {
          boolean max = call.function() == io.shelfmark.sql.plan.AggregateFunction.MAX;
          if (tree.nonNull(record, metric) == 0) {
            yield new AggregateState.Extreme(null, max);
          }
          Object raw =
              Vector.isDoubleType(type)
                  ? (Object) (max ? tree.doubleMax(record, metric) : tree.doubleMin(record, metric))
                  : (Object) (max ? tree.longMax(record, metric) : tree.longMin(record, metric));
          yield new AggregateState.Extreme(KeyValues.box(type, raw), max);
        }
        case DISTINCT_COUNT_HLL -> {
          HllSketch sketch = tree.sketch(record, metric);
          if (sketch == null) {
            yield AggregateState.empty(call);
          }
          HllUnion union = new HllUnion(AggregateState.HLL_LG_K);
          union.update(sketch);
          yield new AggregateState.Hll(union.getResult(TgtHllType.HLL_4));
        }
        default -> throw new IllegalStateException("Cannot answer " + call + " from a star-tree");
      };
    }

    /**
     * The metric of an aggregate the tree keeps (-1 for COUNT(*); for DISTINCTCOUNTHLL the sketch
     * column), or empty.
     */
    private Optional<Integer> metricOf(AggregateCall call) {
      switch (call.function()) {
        case COUNT_STAR -> {
          return Optional.of(-1);
        }
        case DISTINCT_COUNT_HLL -> {
          if (!(call.argument().orElseThrow() instanceof ColumnRef column)) {
            return Optional.empty();
          }
          Optional<Integer> sketch = tree.sketch(column.name());
          if (sketch.isEmpty()) {
            return Optional.empty();
          }
          // Another precision, or values hashed another way, would not give the row path's sketch.
          StarTreeSketch kept = tree.sketches().get(sketch.get());
          boolean alike =
              switch (kept.type()) {
                case LONG ->
                    column.type() == PrimitiveType.INT || column.type() == PrimitiveType.LONG;
                case DOUBLE -> Vector.isDoubleType(column.type());
                case STRING -> column.type() == PrimitiveType.STRING;
              };
          return alike && kept.lgK() == AggregateState.HLL_LG_K ? sketch : Optional.empty();
        }
        case COUNT, SUM, AVG, MIN, MAX -> {
          if (!(call.argument().orElseThrow() instanceof ColumnRef column)
              || !isMetricType(column.type())) {
            return Optional.empty();
          }
          Optional<Integer> metric = tree.metric(column.name());
          boolean extreme =
              call.function() == io.shelfmark.sql.plan.AggregateFunction.MIN
                  || call.function() == io.shelfmark.sql.plan.AggregateFunction.MAX;
          if (metric.isPresent() && extreme && !tree.metrics().get(metric.get()).extremes()) {
            return Optional.empty();
          }
          return metric;
        }
        default -> {
          return Optional.empty();
        }
      }
    }

    private static boolean isMetricType(SqlType type) {
      return type == PrimitiveType.INT
          || type == PrimitiveType.LONG
          || type == PrimitiveType.FLOAT
          || type == PrimitiveType.DOUBLE;
    }

    /** The dimension an expression reads, when the tree has it. */
    private Optional<Integer> dimensionOf(Expression expression) {
      String text =
          switch (expression) {
            case ColumnRef column -> column.name();
            case MapKeyRef key -> key.column() + "['" + key.key() + "']";
            case DateTrunc trunc
                when trunc.count() == 1 && trunc.value() instanceof ColumnRef column ->
                "dateTrunc('"
                    + trunc.unit().name().toLowerCase(Locale.ROOT)
                    + "', "
                    + column.name()
                    + ")";
            default -> null;
          };
      return text == null ? Optional.empty() : tree.dimension(text);
    }

    /** Narrows the allowed ids by one filter term; false when the tree cannot answer it. */
    private boolean constrain(Expression term) {
      if (term instanceof Literal literal && Boolean.TRUE.equals(literal.value())) {
        return true;
      }
      Expression value;
      java.util.function.Predicate<Object> test;
      switch (term) {
        case Comparison comparison -> {
          Expression left = comparison.left();
          Expression right = comparison.right();
          ComparisonOperator operator = comparison.operator();
          if (left instanceof Literal && !(right instanceof Literal)) {
            Expression swap = left;
            left = right;
            right = swap;
            operator = operator.flip();
          }
          if (!(right instanceof Literal literal) || !literal.type().equals(left.type())) {
            return false;
          }
          if (literal.isNull()) {
            test = v -> false;
          } else {
            ComparisonOperator op = operator;
            test = v -> v != null && op.test(Values.compare(v, literal.value()));
          }
          value = left;
          if (isTimeRange(left, operator, literal)) {
            return true;
          }
        }
        case InList in -> {
          for (Literal item : in.items()) {
            if (!item.type().equals(in.value().type())) {
              return false;
            }
          }
          boolean nullItem = in.hasNullItem();
          boolean negated = in.negated();
          test =
              v -> {
                if (v == null) {
                  return false;
                }
                boolean found = false;
                for (Literal item : in.items()) {
                  if (!item.isNull() && Values.equal(v, item.value())) {
                    found = true;
                  }
                }
                // x NOT IN (..., NULL) is never true; x IN (..., NULL) is true where found.
                return negated ? !found && !nullItem : found;
              };
          value = in.value();
        }
        case Between between -> {
          if (!(between.low() instanceof Literal low)
              || !(between.high() instanceof Literal high)
              || !low.type().equals(between.value().type())
              || !high.type().equals(between.value().type())) {
            return false;
          }
          if (!between.negated()
              && !low.isNull()
              && !high.isNull()
              && isTimeRange(between.value(), ComparisonOperator.GREATER_THAN_OR_EQUAL, low)) {
            return isTimeRange(between.value(), ComparisonOperator.LESS_THAN_OR_EQUAL, high);
          }
          if (low.isNull() || high.isNull()) {
            return false; // NULL bounds: three-valued subtleties are left to the row path
          }
          boolean negated = between.negated();
          test =
              v -> {
                if (v == null) {
                  return false;
                }
                boolean inside =
                    Values.compare(v, low.value()) >= 0 && Values.compare(v, high.value()) <= 0;
                return negated != inside;
              };
          value = between.value();
        }
        case IsNull isNull -> {
          boolean negated = isNull.negated();
          test = v -> negated == (v != null);
          value = isNull.value();
        }
        default -> {
          return false;
        }
      }
      Optional<Integer> dimension = dimensionOf(value);
      if (dimension.isEmpty()) {
        return false;
      }
      int d = dimension.get();
      int ids = tree.idCount(d);
      if (allowed[d] == null) {
        allowed[d] = new boolean[ids];
        java.util.Arrays.fill(allowed[d], true);
      }
      for (int id = 0; id < ids; id++) {
        if (allowed[d][id]) {
          allowed[d][id] = test.test(KeyValues.box(value.type(), tree.value(d, id)));
        }
      }
      return true;
    }

    /**
     * Records a range term on a timestamp column that is not a dimension itself but has a time
     * bucket dimension; true when recorded (the column then needs no other kind of term).
     */
    private boolean isTimeRange(Expression value, ComparisonOperator operator, Literal literal) {
      if (!(value instanceof ColumnRef column)
          || tree.dimension(column.name()).isPresent()
          || bucketDimension(column).isEmpty()
          || literal.isNull()
          || !(literal.value() instanceof Long bound)
          || operator == ComparisonOperator.NOT_EQUAL) {
        return false;
      }
      long[] range =
          timeRanges.computeIfAbsent(column, c -> new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
      switch (operator) {
        case EQUAL -> {
          range[0] = Math.max(range[0], bound);
          range[1] = Math.min(range[1], bound);
        }
        case GREATER_THAN_OR_EQUAL -> range[0] = Math.max(range[0], bound);
        case GREATER_THAN -> {
          if (bound == Long.MAX_VALUE) {
            range[0] = Long.MAX_VALUE;
            range[1] = Long.MIN_VALUE;
          } else {
            range[0] = Math.max(range[0], bound + 1);
          }
        }
        case LESS_THAN_OR_EQUAL -> range[1] = Math.min(range[1], bound);
        case LESS_THAN -> {
          if (bound == Long.MIN_VALUE) {
            range[0] = Long.MAX_VALUE;
            range[1] = Long.MIN_VALUE;
          } else {
            range[1] = Math.min(range[1], bound - 1);
          }
        }
        default -> {
          return false;
        }
      }
      return true;
    }

    /** The dimension bucketing {@code column} and its width, the finest when several. */
    private Optional<long[]> bucketDimension(ColumnRef column) {
      long[] best = null;
      for (DateTruncUnitWidth unit : DateTruncUnitWidth.values()) {
        Optional<Integer> d =
            tree.dimension(
                "dateTrunc('" + unit.name().toLowerCase(Locale.ROOT) + "', " + column.name() + ")");
        if (d.isPresent() && best == null) {
          long width = unit.millis * (column.type() == PrimitiveType.LONG ? 1 : 1000);
          best = new long[] {d.get(), width};
        }
      }
      return Optional.ofNullable(best);
    }

    /**
     * Turns each recorded time range into allowed buckets: those it covers whole; the rows of the
     * buckets it cuts become edges. False when it covers no whole bucket (the row path is then
     * cheaper than a tree answer plus edges).
     */
    private boolean constrainTime() {
      for (Map.Entry<ColumnRef, long[]> entry : timeRanges.entrySet()) {
        ColumnRef column = entry.getKey();
        if (!(column.type() == PrimitiveType.LONG
            || column.type() == PrimitiveType.TIMESTAMP
            || column.type() == PrimitiveType.TIMESTAMP_TZ)) {
          return false;
        }
        long[] bucket = bucketDimension(column).orElseThrow();
        int d = (int) bucket[0];
        long width = bucket[1];
        long low = entry.getValue()[0];
        long high = entry.getValue()[1];
        if (low > high) {
          return false; // an empty range: the row path answers it from the indexes for free
        }
        // Whole buckets: [firstWhole, endWhole) in values.
        BigInteger w = BigInteger.valueOf(width);
        BigInteger firstWhole = ceilToMultiple(BigInteger.valueOf(low), w);
        BigInteger endWhole = floorToMultiple(BigInteger.valueOf(high).add(BigInteger.ONE), w);
        if (firstWhole.compareTo(endWhole) >= 0) {
          return false;
        }
        if (BigInteger.valueOf(low).compareTo(firstWhole) < 0) {
          edges.add(new Edge(column, low, firstWhole.longValueExact() - 1));
        }
        if (endWhole.compareTo(BigInteger.valueOf(high)) <= 0) {
          edges.add(new Edge(column, endWhole.longValueExact(), high));
        }
        long first = firstWhole.longValueExact();
        // The last whole bucket's start; below Long.MIN_VALUE only when no bucket is whole, which
        // returned above.
        long last = endWhole.subtract(w).longValueExact();
        int ids = tree.idCount(d);
        if (allowed[d] == null) {
          allowed[d] = new boolean[ids];
          java.util.Arrays.fill(allowed[d], true);
        }
        // A LONG dimension's values are sorted (ids in value order, the null id last), so the
        // buckets inside [first, last] are one run of ids: found by binary search, not by a
        // comparison per id (a one-second dimension has up to 86,400 ids per day).
        int from = firstIdAtLeast(d, first);
        int to = last == Long.MAX_VALUE ? tree.valueCount(d) : firstIdAtLeast(d, last + 1);
        java.util.Arrays.fill(allowed[d], 0, from, false);
        java.util.Arrays.fill(allowed[d], to, ids, false);
      }
      return true;
    }

    /** The first id of LONG dimension {@code d} whose value is at least {@code bound}. */
    private int firstIdAtLeast(int d, long bound) {
      int low = 0;
      int high = tree.valueCount(d);
      while (low < high) {
        int mid = (low + high) >>> 1;
        if ((Long) tree.value(d, mid) < bound) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    private static BigInteger ceilToMultiple(BigInteger value, BigInteger width) {
      BigInteger[] qr = value.divideAndRemainder(width);
      BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
      BigInteger result = floor.multiply(width);
      return result.equals(value) ? result : result.add(width);
    }

    private static BigInteger floorToMultiple(BigInteger value, BigInteger width) {
      BigInteger[] qr = value.divideAndRemainder(width);
      BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
      return floor.multiply(width);
    }
  }

  /** The units a bucket dimension may have, finest first, with their width in millis. */
  private enum DateTruncUnitWidth {
    SECOND(1_000L),
    MINUTE(60_000L),
    HOUR(3_600_000L),
    DAY(86_400_000L);

    private final long millis;

    DateTruncUnitWidth(long millis) {
      this.millis = millis;
    }
  }
}
