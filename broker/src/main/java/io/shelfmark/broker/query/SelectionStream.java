package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.exchange.result.ResultRendering;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.List;

/**
 * The broker's end of a streamed selection: what finishing does to a selection without ORDER BY
 * ({@code ResultFinisher}: skip OFFSET rows, stop after LIMIT, render each value as the JSON answer
 * does), done row by row as the engine produces them, each chunk handed to the client's {@link
 * ResultSink} at once. Satisfied once OFFSET + LIMIT rows went by, which stops the engine reading.
 * One query, one thread.
 */
final class SelectionStream implements RowSink {
  private final ResultSink sink;
  private final Runnable check;
  private final List<SqlType> types;
  private final long offset;
  private final long end;
  private long seen;

  /**
   * @param check throws when the query must stop (its deadline, a cancel), called per chunk
   */
  SelectionStream(QueryPlan plan, ResultSink sink, Runnable check) {
    requireNonNull(plan, "plan is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.check = requireNonNull(check, "check is null");
    this.types = plan.outputs().stream().map(output -> output.type()).toList();
    this.offset = plan.offset();
    long limit = plan.limit().isPresent() ? plan.limit().getAsLong() : Long.MAX_VALUE;
    // Saturating, as finishing does: a huge OFFSET plus LIMIT answers no rows, not an overflow.
    long sum = offset + limit;
    this.end = sum < 0 ? Long.MAX_VALUE : sum;
  }

  @Override
  public void accept(List<List<Object>> rows) {
    check.run();
    List<List<Object>> rendered = new ArrayList<>(rows.size());
    for (List<Object> row : rows) {
      long index = seen++;
      if (index < offset) {
        continue;
      }
      if (index >= end) {
        seen = end;
        break;
      }
      List<Object> values = new ArrayList<>(types.size());
      for (int c = 0; c < types.size(); c++) {
        values.add(ResultRendering.render(types.get(c), row.get(c)));
      }
      rendered.add(values);
    }
    if (!rendered.isEmpty()) {
      sink.rows(rendered);
    }
  }

  @Override
  public boolean isSatisfied() {
    return seen >= end;
  }
}
