package io.shelfmark.exchange.error;

/** What kind of failure a {@link QueryException} reports, so the broker can answer accordingly. */
public enum ErrorCode {
  /** The query is wrong for the data: an overflow, a value that does not convert. */
  USER,
  /** Valid SQL that this server cannot answer correctly yet; never answered approximately. */
  UNSUPPORTED,
  /** The deadline passed. */
  TIMEOUT,
  /** The query needs more than a configured limit allows (groups, distinct values, rows). */
  RESOURCE_EXHAUSTED,
  /** The caller cancelled the query. */
  CANCELLED,
  /** Storage, a corrupt file or segment, or a bug. */
  INTERNAL,
  /** No server that holds some of the query's files could answer (the message names them). */
  UNAVAILABLE
}
