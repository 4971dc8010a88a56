package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Told of every query the broker answers: metrics count it, the query log writes it. Called on the
 * query's thread once its response is complete; must be cheap and must not throw.
 */
@FunctionalInterface
public interface QueryListener {
  /** The table of a query that did not resolve to a served table. */
  String NO_TABLE = "none";

  /** Listens to nothing. */
  QueryListener NONE = (table, request, response, elapsedNanos) -> {};

  /**
   * @param table the served table the query ran on, or {@link #NO_TABLE}
   * @param request the query as received
   * @param response the answer, a result or errors, with what it cost
   * @param elapsedNanos time from receiving the request to the complete response
   */
  void answered(String table, QueryRequest request, QueryResponse response, long elapsedNanos);

  /** Tells each of {@code listeners}, in order. */
  static QueryListener all(List<QueryListener> listeners) {
    List<QueryListener> copy = List.copyOf(requireNonNull(listeners, "listeners is null"));
    return (table, request, response, elapsedNanos) -> {
      for (QueryListener listener : copy) {
        listener.answered(table, request, response, elapsedNanos);
      }
    };
  }
}
