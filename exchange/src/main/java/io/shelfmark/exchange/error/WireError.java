package io.shelfmark.exchange.error;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * The kinds of failure a server reports to a broker over the wire, carried beside the status
 * message (under {@link #METADATA_KEY}) so that the broker raises the same kind of exception with
 * the same message as the in-process path would, and answers with the same error code.
 *
 * <p>A failure without a kind (the connection refused or reset, the server gone) is the
 * transport's, not the query's: the broker retries those files on another replica. Of the kinds,
 * only {@link #NOT_SERVED} is retried elsewhere; the others are the query's own fault or the
 * file's, and a replica would answer the same.
 */
public enum WireError {
  USER,
  UNSUPPORTED,
  TIMEOUT,
  CANCELLED,
  RESOURCE_EXHAUSTED,
  INTERNAL,
  /** Reading object storage failed. */
  STORAGE,
  /** A data file, delete file or segment is corrupt. */
  CORRUPT,
  /** The server does not serve that snapshot or file (yet, or any more): another replica may. */
  NOT_SERVED,
  /** The fragment could not be read: another version, or damaged bytes. */
  WIRE_FORMAT;

  /** The status metadata key that carries the kind's name. */
  public static final String METADATA_KEY = "shelfmark-error";

  /**
   * The kind of a {@link QueryException}, looking through INTERNAL to storage and corrupt files.
   */
  public static WireError of(QueryException e) {
    return switch (e.code()) {
      case USER -> USER;
      case UNSUPPORTED -> UNSUPPORTED;
      case TIMEOUT -> TIMEOUT;
      case CANCELLED -> CANCELLED;
      case RESOURCE_EXHAUSTED -> RESOURCE_EXHAUSTED;
      case INTERNAL, UNAVAILABLE -> ofCause(e.getCause()).orElse(INTERNAL);
    };
  }

  /**
   * Storage failures, corrupt files and unsupported features anywhere in the cause chain, by their
   * class names (as the broker classifies in-process failures).
   */
  public static Optional<WireError> ofCause(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String name = t.getClass().getSimpleName();
      if (name.startsWith("Corrupt")) {
        return Optional.of(CORRUPT);
      }
      if (name.startsWith("Unsupported")) {
        return Optional.of(UNSUPPORTED);
      }
      if (name.equals("StorageException")
          || name.equals("ObjectNotFoundException")
          || t instanceof IOException) {
        return Optional.of(STORAGE);
      }
    }
    return Optional.empty();
  }

  /**
   * The exception the broker raises for a server's failure of this kind: the one the in-process
   * path raises for it, with the server's message, so the response shows the same code and text.
   */
  public RuntimeException toException(String message) {
    return switch (this) {
      case USER -> new QueryExecutionException(message);
      case UNSUPPORTED -> new UnsupportedQueryException(message);
      case TIMEOUT -> new QueryTimeoutException(message);
      case CANCELLED -> new QueryCancelledException(message);
      case RESOURCE_EXHAUSTED -> new QueryResourceException(message);
      case STORAGE -> new UncheckedIOException(message, new IOException(message));
      case CORRUPT -> new UncheckedIOException(message, new CorruptFileReportedException(message));
      case INTERNAL, NOT_SERVED, WIRE_FORMAT -> new QueryInternalException(message);
    };
  }
}
