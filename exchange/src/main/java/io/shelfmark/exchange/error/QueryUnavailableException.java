package io.shelfmark.exchange.error;

/**
 * No replica of some of the query's data files answered within its deadline: every server holding
 * them was down, refused, or failed on the way. The message names the files (the first few and how
 * many); retrying later, or with {@code allowPartialResults=true}, may answer.
 */
public final class QueryUnavailableException extends QueryException {
  public QueryUnavailableException(String message, Throwable cause) {
    super(ErrorCode.UNAVAILABLE, message, cause);
  }
}
