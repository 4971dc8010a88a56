package io.shelfmark.exchange.error;

/** Reading a data file or segment failed (storage, a corrupt file); the message names the file. */
public final class QueryInternalException extends QueryException {
  public QueryInternalException(String message) {
    super(ErrorCode.INTERNAL, message, null);
  }

  public QueryInternalException(String message, Throwable cause) {
    super(ErrorCode.INTERNAL, message, cause);
  }
}
