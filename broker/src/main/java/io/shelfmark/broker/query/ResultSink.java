package io.shelfmark.broker.query;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Where {@link QueryService#stream} puts a result's rows as they come: a selection without ORDER BY
 * while the engine reads it, any other result once finished. Rows are rendered as the JSON answer
 * renders them ({@code ResultRendering}), so a streamed answer and a materialised one hold the same
 * values.
 *
 * <p>Back-pressure: {@link #rows} may block until the client takes more. To stop the query it
 * throws the exchange's {@code QueryTimeoutException} (the deadline passed while the client read
 * nothing) or {@code QueryCancelledException} (the client went away); the service turns them into
 * the response's error. Called from one thread at a time.
 */
public interface ResultSink {
  /**
   * The result's columns ({@code columns} has no rows), once, before any rows.
   *
   * @param deadline when the query times out, for a sink waiting on its client; empty when the
   *     result is already complete (a waiting sink then bounds its wait on its own)
   */
  void start(QueryResponse.ResultTable columns, Optional<Instant> deadline);

  /** The next rows, in the result's order. */
  void rows(List<List<Object>> rows);
}
