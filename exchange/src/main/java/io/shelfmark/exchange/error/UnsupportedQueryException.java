package io.shelfmark.exchange.error;

/**
 * A query, or a query over some file, that this server cannot answer correctly (a column type it
 * does not read, equality deletes, a segment covering several files...). The message names the
 * thing and what to do; the query is never answered wrongly or partially.
 */
public final class UnsupportedQueryException extends QueryException {
  public UnsupportedQueryException(String message) {
    super(ErrorCode.UNSUPPORTED, message, null);
  }

  public UnsupportedQueryException(String message, Throwable cause) {
    super(ErrorCode.UNSUPPORTED, message, cause);
  }
}
