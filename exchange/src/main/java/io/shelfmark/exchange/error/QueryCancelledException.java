package io.shelfmark.exchange.error;

/** The caller cancelled the query; outstanding reads were cancelled. */
public final class QueryCancelledException extends QueryException {
  public QueryCancelledException(String message) {
    super(ErrorCode.CANCELLED, message, null);
  }

  public QueryCancelledException(String message, Throwable cause) {
    super(ErrorCode.CANCELLED, message, cause);
  }
}
