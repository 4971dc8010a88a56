package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

/**
 * One SQL query as received by the broker.
 *
 * @param sql the statement text, exactly as the client sent it
 */
public record QueryRequest(String sql) {
  public QueryRequest {
    requireNonNull(sql, "sql is null");
  }
}
