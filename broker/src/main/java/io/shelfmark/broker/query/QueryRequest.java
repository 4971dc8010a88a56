package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;

/**
 * One SQL query as received by the broker.
 *
 * @param sql the statement text, exactly as the client sent it
 * @param timeout how long the client allows; empty = the broker's default
 */
public record QueryRequest(String sql, Optional<Duration> timeout) {
  public QueryRequest {
    requireNonNull(sql, "sql is null");
    requireNonNull(timeout, "timeout is null");
    if (timeout.isPresent() && (timeout.get().isNegative() || timeout.get().isZero())) {
      throw new IllegalArgumentException("timeout must be positive: " + timeout.get());
    }
  }

  /** A request with the broker's default timeout. */
  public QueryRequest(String sql) {
    this(sql, Optional.empty());
  }
}
