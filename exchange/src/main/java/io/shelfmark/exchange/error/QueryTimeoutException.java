package io.shelfmark.exchange.error;

/** The query's deadline passed; outstanding reads were cancelled. */
public final class QueryTimeoutException extends QueryException {
  public QueryTimeoutException(String message) {
    super(ErrorCode.TIMEOUT, message, null);
  }

  public QueryTimeoutException(String message, Throwable cause) {
    super(ErrorCode.TIMEOUT, message, cause);
  }
}
