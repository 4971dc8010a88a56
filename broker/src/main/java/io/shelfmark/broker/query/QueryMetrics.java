package io.shelfmark.broker.query;

/**
 * Told of every query the broker answers, to count it (Prometheus metrics are one implementation).
 * Called on the query's thread after its response is complete; must be cheap and must not throw.
 */
@FunctionalInterface
public interface QueryMetrics {
  /** The table label of a query that did not resolve to a served table. */
  String NO_TABLE = "none";

  /** Counts nothing. */
  QueryMetrics DISABLED = (table, response, elapsedNanos) -> {};

  /**
   * @param table the served table the query ran on, or {@link #NO_TABLE}
   * @param response the answer, a result or errors, with what it cost
   * @param elapsedNanos time from receiving the request to the complete response
   */
  void record(String table, QueryResponse response, long elapsedNanos);
}
