package io.shelfmark.catalog;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.util.Optional;

/** Reads what went wrong out of the exceptions Iceberg catalogs and JDBC drivers throw. */
final class CatalogErrors {
  private CatalogErrors() {}

  /**
   * Whether the failure is a server or database that did not answer (connection refused, unknown
   * host, timeout, SQL state class 08), as opposed to one that answered with an error.
   */
  static boolean isUnreachable(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException
          || cause instanceof UnknownHostException
          || cause instanceof NoRouteToHostException
          || cause instanceof SocketTimeoutException) {
        return true;
      }
      if (cause instanceof SQLException sql
          && sql.getSQLState() != null
          && sql.getSQLState().startsWith("08")) {
        return true;
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return false;
  }

  /**
   * The failure's message followed by its deepest cause's, when that one says something more
   * (Iceberg wraps the driver's or HTTP client's explanation in generic messages such as "Error
   * occurred while processing GET request").
   */
  static String describe(Throwable failure) {
    String message = messageOf(failure);
    Throwable root = rootCause(failure);
    if (root == failure) {
      return message;
    }
    String rootMessage = messageOf(root);
    return message.contains(rootMessage) ? message : message + ": " + rootMessage;
  }

  static Throwable rootCause(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static String messageOf(Throwable failure) {
    String message = failure.getMessage();
    if (message == null || message.isBlank()) {
      return failure.getClass().getSimpleName();
    }
    // Driver messages often end with a period or newline; the caller appends a hint in brackets.
    String trimmed = message.strip();
    return trimmed.endsWith(".") ? trimmed.substring(0, trimmed.length() - 1) : trimmed;
  }

  /** The first exception of {@code type} in the failure's cause chain, the failure included. */
  static <T extends Throwable> Optional<T> firstOfType(Throwable failure, Class<T> type) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return Optional.of(type.cast(cause));
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }
}
