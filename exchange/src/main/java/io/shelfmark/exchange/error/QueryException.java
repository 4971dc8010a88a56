package io.shelfmark.exchange.error;

import static java.util.Objects.requireNonNull;

/** A failure of one query's execution on a server, with an {@link ErrorCode} for the broker. */
public abstract class QueryException extends RuntimeException {
  private final ErrorCode code;

  protected QueryException(ErrorCode code, String message, Throwable cause) {
    super(message, cause);
    this.code = requireNonNull(code, "code is null");
  }

  public ErrorCode code() {
    return code;
  }
}
