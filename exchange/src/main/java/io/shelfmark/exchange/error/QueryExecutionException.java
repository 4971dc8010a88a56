package io.shelfmark.exchange.error;

/**
 * The data makes the query fail: an integer overflow in arithmetic or in a final SUM, a DECIMAL
 * past 38 digits. The message names the expression or aggregate.
 */
public final class QueryExecutionException extends QueryException {
  public QueryExecutionException(String message) {
    super(ErrorCode.USER, message, null);
  }

  public QueryExecutionException(String message, Throwable cause) {
    super(ErrorCode.USER, message, cause);
  }
}
