package io.shelfmark.server.exec;

import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowOrdering;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.plan.SortKey;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a non-aggregated query: outputs and ORDER BY values evaluated a batch at a time, rows
 * boxed only for the matching rows, and at most offset + limit kept (the first ones without ORDER
 * BY, then nothing more is read; the best ones with ORDER BY, trimmed as they accumulate).
 */
final class RowCollector implements BatchConsumer {
  private final QueryPlan plan;
  private final long wanted;
  private final RowOrdering ordering;
  private final QueryLimits limits;
  private List<List<Object>> rows = new ArrayList<>();

  RowCollector(QueryPlan plan, QueryLimits limits) {
    this.plan = plan;
    this.limits = limits;
    this.wanted = wanted(plan);
    this.ordering = new RowOrdering(plan.orderBy(), plan.outputs().size());
  }

  /**
   * offset + limit, or everything when there is no limit. Saturates: both are valid BIGINTs on
   * their own (OFFSET 9223372036854775807 is a legal query that answers no rows), so their sum must
   * not overflow into an error.
   */
  static long wanted(QueryPlan plan) {
    return plan.limit().isPresent()
        ? saturatedEnd(plan.offset(), plan.limit().getAsLong())
        : Long.MAX_VALUE;
  }

  @Override
  public void add(VectorInputs inputs, int size, int[] sel, int n) {
    if (n == 0 || isSatisfied()) {
      return;
    }
    List<Vector> columns = new ArrayList<>();
    for (OutputColumn output : plan.outputs()) {
      columns.add(VectorEvaluator.evaluate(output.expression(), inputs, size));
    }
    for (SortKey key : plan.orderBy()) {
      columns.add(VectorEvaluator.evaluate(key.expression(), inputs, size));
    }
    for (int j = 0; j < n && !isSatisfied(); j++) {
      List<Object> row = new ArrayList<>(columns.size());
      for (Vector column : columns) {
        Object value = column.boxed(sel[j]);
        row.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes).asReadOnlyBuffer() : value);
      }
      rows.add(row);
    }
    // The rows this file would keep: a LIMIT larger than the table is fine, holding them is not.
    limits.checkRows(Math.min(rows.size(), wanted));
    if (!plan.orderBy().isEmpty() && rows.size() > 2 * Math.min(wanted, 1 << 20)) {
      rows = new ArrayList<>(ordering.first(rows, wanted));
    }
  }

  @Override
  public boolean isSatisfied() {
    return plan.orderBy().isEmpty() && rows.size() >= wanted;
  }

  @Override
  public PartialResult result(ExecutionStatistics statistics) {
    List<List<Object>> kept = plan.orderBy().isEmpty() ? rows : ordering.first(rows, wanted);
    return PartialResult.ofRows(kept, statistics);
  }

  // Both are non-negative, so an overflow shows as a negative sum.
  private static long saturatedEnd(long offset, long limit) {
    long end = offset + limit;
    return end < 0 ? Long.MAX_VALUE : end;
  }
}
