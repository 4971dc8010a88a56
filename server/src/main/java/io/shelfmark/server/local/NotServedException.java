package io.shelfmark.server.local;

/**
 * A query named a snapshot or data file this server does not serve: it serves another snapshot of
 * the table (the route changed while the query was on its way), or not the table at all. Another
 * replica, or the query retried, may answer.
 */
public final class NotServedException extends IllegalStateException {
  public NotServedException(String message) {
    super(message);
  }
}
