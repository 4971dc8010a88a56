package io.shelfmark.server.exec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.sql.plan.OutputColumn;
import io.shelfmark.sql.plan.QueryPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a streamed selection (no ORDER BY): outputs evaluated a batch at a time, as {@link
 * RowCollector} does, but handed to a {@link RowSink} in chunks of at most {@link #CHUNK_ROWS} rows
 * instead of kept. A file's partial result then holds its statistics and no rows, and the memory a
 * query holds is one decoded batch and one chunk, whatever the number of rows it selects.
 */
final class RowStreamer implements BatchConsumer {
  /** Rows boxed at a time: a row group of a million rows is not boxed whole before it leaves. */
  static final int CHUNK_ROWS = 8192;

  private final QueryPlan plan;
  private final RowSink sink;

  RowStreamer(QueryPlan plan, RowSink sink) {
    this.plan = requireNonNull(plan, "plan is null");
    this.sink = requireNonNull(sink, "sink is null");
    if (plan.aggregated() || !plan.orderBy().isEmpty()) {
      throw new IllegalArgumentException(
          "Cannot stream the rows of %s: only a selection without ORDER BY streams"
              .formatted(plan));
    }
  }

  @Override
  public void add(VectorInputs inputs, int size, int[] sel, int n) {
    if (n == 0 || sink.isSatisfied()) {
      return;
    }
    List<Vector> columns = new ArrayList<>(plan.outputs().size());
    for (OutputColumn output : plan.outputs()) {
      columns.add(VectorEvaluator.evaluate(output.expression(), inputs, size));
    }
    for (int from = 0; from < n && !sink.isSatisfied(); from += CHUNK_ROWS) {
      int to = Math.min(n, from + CHUNK_ROWS);
      List<List<Object>> rows = new ArrayList<>(to - from);
      for (int j = from; j < to; j++) {
        List<Object> row = new ArrayList<>(columns.size());
        for (Vector column : columns) {
          Object value = column.boxed(sel[j]);
          row.add(
              value instanceof byte[] bytes ? ByteBuffer.wrap(bytes).asReadOnlyBuffer() : value);
        }
        rows.add(row);
      }
      sink.accept(rows);
    }
  }

  @Override
  public boolean isSatisfied() {
    return sink.isSatisfied();
  }

  @Override
  public PartialResult result(ExecutionStatistics statistics) {
    return PartialResult.ofRows(List.of(), statistics);
  }
}
