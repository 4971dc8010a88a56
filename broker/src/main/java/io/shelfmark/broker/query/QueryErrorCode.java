package io.shelfmark.broker.query;

/**
 * Error categories returned in a response's {@code exceptions}. Where Apache Pinot's broker defines
 * the same condition, the numeric code is Pinot's (its {@code QueryException} constants), so Pinot
 * clients and dashboards classify the error as they would Pinot's; Shelfmark's own conditions use
 * numbers Pinot leaves free (the 900s). {@code errorType} in the response names the category either
 * way. docs/http-api.md holds the table.
 */
public enum QueryErrorCode {
  /** The request itself is malformed (not JSON, no "sql" field, a bad query option). */
  BAD_REQUEST(100),
  /** The SQL does not parse, or names an unknown function. */
  SQL_PARSING(150),
  /** The query names a table that is not served. */
  UNKNOWN_TABLE(190),
  /** The query names a column its table does not have. */
  UNKNOWN_COLUMN(710),
  /**
   * The query is well formed but wrong: a type mismatch, a column neither grouped nor aggregated.
   */
  QUERY_VALIDATION(700),
  /** The SQL is valid but uses something Shelfmark cannot answer correctly yet. */
  UNSUPPORTED(910),
  /** Reading from object storage failed. */
  STORAGE(920),
  /** A data file or segment is corrupt. */
  CORRUPT(930),
  /**
   * The node already runs and queues as many queries of this one's lane as it may: retry later.
   * Pinot's code for a broker over its query quota; answered with HTTP 429.
   */
  TOO_MANY_QUERIES(429),
  /**
   * The query needs more than a configured limit allows (IN list items, groups, distinct values,
   * rows): the message names the limit's config key.
   */
  RESOURCE_EXHAUSTED(940),
  /** The query ran past its time limit and was cancelled. */
  TIMEOUT(250),
  /** The client went away, and the query was stopped. */
  CANCELLED(503),
  /** The query fails on this data, e.g. a SUM beyond the BIGINT range: the message says why. */
  QUERY_EXECUTION(200),
  /**
   * The broker cannot take any query now: it is shutting down (answered with HTTP 503; retry on
   * another broker). A full queue is {@link #TOO_MANY_QUERIES}.
   */
  UNAVAILABLE(950),
  /** A bug in Shelfmark: the message says what failed. */
  INTERNAL(450);

  private final int code;

  QueryErrorCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
