package io.shelfmark.exchange.result;

import io.shelfmark.exchange.error.QueryExecutionException;
import io.shelfmark.exchange.vector.PredicateEvaluator;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.exchange.vector.Vectors;
import io.shelfmark.sql.expression.AggregateRef;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.GroupKeyRef;
import io.shelfmark.sql.plan.AggregateCall;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortKey;
import io.shelfmark.sql.type.DecimalType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * Turns a merged {@link PartialResult} into the final table: aggregate values from their states
 * (with the final SUM overflow check), HAVING, outputs, ORDER BY with NULLS FIRST/LAST, OFFSET and
 * LIMIT, values rendered for JSON ({@link ResultRendering}). Stateless.
 *
 * <p>A query without GROUP BY has one group even over no rows: COUNT gives 0, the other aggregates
 * NULL.
 */
public final class ResultFinisher {
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private ResultFinisher() {}

  /**
   * @throws QueryExecutionException when an integer SUM does not fit a LONG, or a DECIMAL sum
   *     exceeds 38 digits
   */
  public static FinalResult finish(QueryPlan plan, PartialResult partial) {
    return finish(plan, partial, () -> {});
  }

  /**
   * As {@link #finish(QueryPlan, PartialResult)}, calling {@code check} (the deadline: it throws to
   * stop) between steps, during the sort and every few thousand rows rendered.
   */
  public static FinalResult finish(QueryPlan plan, PartialResult partial, Runnable check) {
    check.run();
    List<List<Object>> rows =
        plan.aggregated() ? aggregatedRows(plan, partial.groups(), check) : partial.rows();
    check.run();
    int outputs = plan.outputs().size();
    RowOrdering ordering = new RowOrdering(plan.orderBy(), outputs);
    // Saturating, as in RowCollector: a huge OFFSET plus LIMIT answers no rows, not an overflow.
    long end =
        plan.limit().isPresent()
            ? saturatedEnd(plan.offset(), plan.limit().getAsLong())
            : Long.MAX_VALUE;
    List<List<Object>> ordered =
        plan.orderBy().isEmpty()
            ? rows.subList(0, (int) Math.min(rows.size(), end))
            : ordering.first(rows, end, check);
    check.run();
    List<String> names = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (OutputColumn output : plan.outputs()) {
      names.add(output.name());
      types.add(ResultRendering.typeName(output.type()));
    }
    List<List<Object>> rendered = new ArrayList<>();
    for (long i = plan.offset(); i < ordered.size(); i++) {
      if ((i & 4095) == 0) {
        check.run();
      }
      List<Object> row = ordered.get((int) i);
      List<Object> values = new ArrayList<>(outputs);
      for (int c = 0; c < outputs; c++) {
        values.add(ResultRendering.render(plan.outputs().get(c).type(), row.get(c)));
      }
      rendered.add(values);
    }
    return new FinalResult(names, types, rendered);
  }

  /** Per group passing HAVING: the output values followed by the ORDER BY values. */
  private static List<List<Object>> aggregatedRows(
      QueryPlan plan, List<Group> groups, Runnable check) {
    if (groups.isEmpty() && plan.groupKeys().isEmpty()) {
      List<AggregateState> empty = new ArrayList<>(plan.aggregates().size());
      for (AggregateCall aggregate : plan.aggregates()) {
        empty.add(AggregateState.empty(aggregate));
      }
      groups = List.of(new Group(List.of(), empty));
    }
    int size = groups.size();
    List<Vector> keys = new ArrayList<>();
    List<Vector> aggregates = new ArrayList<>();
    if (groups instanceof GroupColumns columns) {
      // The columns are the vectors (or give them): no group is boxed.
      keys.addAll(columns.keys());
      for (int a = 0; a < plan.aggregates().size(); a++) {
        check.run();
        aggregates.add(columns.states().get(a).finalValues(plan.aggregates().get(a), size));
      }
    } else {
      boxedColumns(plan, groups, check, keys, aggregates);
    }
    VectorInputs inputs =
        (Expression leaf) ->
            switch (leaf) {
              case GroupKeyRef key -> keys.get(key.index());
              case AggregateRef aggregate -> aggregates.get(aggregate.index());
              default ->
                  throw new IllegalArgumentException(
                      "Cannot evaluate " + leaf + " over groups: it is not a key or aggregate");
            };
    Vector having =
        plan.having().isPresent()
            ? VectorEvaluator.evaluate(plan.having().get(), inputs, size)
            : null;
    List<Vector> columns = new ArrayList<>();
    for (OutputColumn output : plan.outputs()) {
      check.run();
      columns.add(VectorEvaluator.evaluate(output.expression(), inputs, size));
    }
    for (SortKey key : plan.orderBy()) {
      columns.add(VectorEvaluator.evaluate(key.expression(), inputs, size));
    }
    check.run();
    int[] passing = new int[size];
    int kept = 0;
    for (int g = 0; g < size; g++) {
      if ((g & 4095) == 0) {
        check.run();
      }
      if (having == null || PredicateEvaluator.isTrue(having, g)) {
        passing[kept++] = g;
      }
    }
    return new GroupRows(columns, passing, kept);
  }

  /** The key and aggregate vectors of groups held as objects, each value boxed once more. */
  private static void boxedColumns(
      QueryPlan plan,
      List<Group> groups,
      Runnable check,
      List<Vector> keys,
      List<Vector> aggregates) {
    int size = groups.size();
    for (int k = 0; k < plan.groupKeys().size(); k++) {
      List<Object> values = new ArrayList<>(size);
      for (Group group : groups) {
        if ((values.size() & 4095) == 0) {
          check.run();
        }
        values.add(group.key().get(k));
      }
      keys.add(Vectors.ofBoxed(plan.groupKeys().get(k).type(), values));
    }
    for (int a = 0; a < plan.aggregates().size(); a++) {
      AggregateCall call = plan.aggregates().get(a);
      List<Object> values = new ArrayList<>(size);
      for (Group group : groups) {
        if ((values.size() & 4095) == 0) {
          check.run();
        }
        values.add(finalValue(call, group.states().get(a)));
      }
      aggregates.add(Vectors.ofBoxed(call.type(), values));
    }
  }

  /**
   * The rows of the groups passing HAVING, each boxed when it is read: a top-N ORDER BY reads every
   * row once and keeps N, so a many-group query no longer holds a boxed row per group while it
   * sorts (a 200,000-group GROUP BY held 200,000 of them long enough for a young collection to copy
   * them). Reading a row twice boxes it twice; every reader reads each row once.
   */
  private static final class GroupRows extends AbstractList<List<Object>> implements RandomAccess {
    private final List<Vector> columns;
    private final int[] groups;
    private final int size;

    GroupRows(List<Vector> columns, int[] groups, int size) {
      this.columns = columns;
      this.groups = groups;
      this.size = size;
    }

    @Override
    public List<Object> get(int index) {
      Objects.checkIndex(index, size);
      int group = groups[index];
      Object[] row = new Object[columns.size()];
      for (int c = 0; c < row.length; c++) {
        row[c] = columns.get(c).boxed(group);
      }
      return Arrays.asList(row);
    }

    @Override
    public int size() {
      return size;
    }
  }

  /** The value of one aggregate from its merged state. */
  static Object finalValue(AggregateCall call, AggregateState state) {
    return switch (state) {
      case AggregateState.Count count -> count.count();
      case AggregateState.LongSum sum -> {
        if (sum.count() == 0) {
          yield null;
        }
        BigInteger total = sum.sum();
        if (call.function() == io.shelfmark.sql.plan.AggregateFunction.AVG) {
          yield new BigDecimal(total)
              .divide(BigDecimal.valueOf(sum.count()), MathContext.DECIMAL128)
              .doubleValue();
        }
        if (total.compareTo(LONG_MIN) < 0 || total.compareTo(LONG_MAX) > 0) {
          throw new QueryExecutionException(
              "Cannot compute %s: the sum %s does not fit in LONG (filter the rows or sum a DOUBLE cast)"
                  .formatted(call, total));
        }
        yield total.longValue();
      }
      case AggregateState.DoubleSum sum -> {
        if (sum.count() == 0) {
          yield null;
        }
        yield call.function() == io.shelfmark.sql.plan.AggregateFunction.AVG
            ? sum.sum() / sum.count()
            : sum.sum();
      }
      case AggregateState.DecimalSum sum -> {
        if (sum.count() == 0) {
          yield null;
        }
        if (call.function() == io.shelfmark.sql.plan.AggregateFunction.AVG) {
          yield sum.sum()
              .divide(BigDecimal.valueOf(sum.count()), MathContext.DECIMAL128)
              .doubleValue();
        }
        DecimalType type = (DecimalType) call.type();
        BigDecimal total = sum.sum().setScale(type.scale());
        if (total.precision() - total.scale() > type.integerDigits()) {
          throw new QueryExecutionException(
              "Cannot compute %s: the sum %s does not fit in DECIMAL(38,%d)"
                  .formatted(call, total.toPlainString(), type.scale()));
        }
        yield total;
      }
      case AggregateState.Extreme extreme -> extreme.value();
      case AggregateState.Distinct distinct -> (long) distinct.values().size();
      case AggregateState.Hll hll -> hll.estimate();
    };
  }

  // Both are non-negative, so an overflow shows as a negative sum.
  private static long saturatedEnd(long offset, long limit) {
    long end = offset + limit;
    return end < 0 ? Long.MAX_VALUE : end;
  }
}
