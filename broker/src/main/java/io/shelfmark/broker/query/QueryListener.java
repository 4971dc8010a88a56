package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.explain.ExplainReport;
import java.util.List;
import java.util.Optional;

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

  /**
   * As {@link #answered(String, QueryRequest, QueryResponse, long)}, with the query's EXPLAIN
   * ANALYZE when it was slow and the broker records slow queries' profiles ({@code
   * query.slow-profile}); the query log writes it, the others need not look.
   */
  default void answered(
      String table,
      QueryRequest request,
      QueryResponse response,
      long elapsedNanos,
      Optional<ExplainReport> slowProfile) {
    answered(table, request, response, elapsedNanos);
  }

  /** Tells each of {@code listeners}, in order. */
  static QueryListener all(List<QueryListener> listeners) {
    List<QueryListener> copy = List.copyOf(requireNonNull(listeners, "listeners is null"));
    return new QueryListener() {
      @Override
      public void answered(
          String table, QueryRequest request, QueryResponse response, long elapsedNanos) {
        answered(table, request, response, elapsedNanos, Optional.empty());
      }

      @Override
      public void answered(
          String table,
          QueryRequest request,
          QueryResponse response,
          long elapsedNanos,
          Optional<ExplainReport> slowProfile) {
        for (QueryListener listener : copy) {
          listener.answered(table, request, response, elapsedNanos, slowProfile);
        }
      }
    };
  }
}
