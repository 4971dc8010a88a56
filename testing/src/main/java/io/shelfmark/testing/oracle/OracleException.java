package io.shelfmark.testing.oracle;

/**
 * DuckDB refused a statement of the oracle: the message names the statement and DuckDB's reason.
 */
public final class OracleException extends RuntimeException {
  public OracleException(String message, Throwable cause) {
    super(message, cause);
  }
}
