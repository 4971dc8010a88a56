package io.shelfmark.exchange.error;

/**
 * The query needs more than a configured limit allows (groups, distinct values, rows): refused
 * whole before it can exhaust the heap. The message names the limit's config key.
 */
public final class QueryResourceException extends QueryException {
  public QueryResourceException(String message) {
    super(ErrorCode.RESOURCE_EXHAUSTED, message, null);
  }
}
