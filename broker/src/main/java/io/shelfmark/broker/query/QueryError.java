package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

/** One entry of a response's {@code exceptions}: a category and a message that says what to do. */
public record QueryError(QueryErrorCode code, String message) {
  public QueryError {
    requireNonNull(code, "code is null");
    requireNonNull(message, "message is null");
  }
}
