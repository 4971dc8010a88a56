package io.shelfmark.broker.query;

/**
 * Error categories returned in a response's {@code exceptions}. The numeric codes follow Apache
 * Pinot's broker where one fits (150 SQL parsing, 200 query execution, 250 execution timeout), so
 * Pinot clients classify them the same way; Shelfmark's own categories use the 700 range.
 */
public enum QueryErrorCode {
  /** The request itself is malformed (not JSON, no "sql" field). */
  BAD_REQUEST(400),
  /** The SQL does not parse, or names an unknown table, column or function. */
  SQL_PARSING(150),
  /** The SQL is valid but uses something Shelfmark cannot answer correctly yet. */
  UNSUPPORTED(710),
  /** Reading from object storage failed. */
  STORAGE(720),
  /** A data file or segment is corrupt. */
  CORRUPT(730),
  /** The query ran past its time limit and was cancelled. */
  TIMEOUT(250),
  /** The query fails on this data, e.g. a SUM beyond the BIGINT range: the message says why. */
  QUERY_EXECUTION(200),
  /** A bug in Shelfmark: the message says what failed. */
  INTERNAL(200);

  private final int code;

  QueryErrorCode(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }
}
