package io.shelfmark.server.flight;

import io.shelfmark.exchange.error.QueryException;
import io.shelfmark.exchange.error.WireError;
import io.shelfmark.exchange.fragment.WireFormatException;
import io.shelfmark.server.local.NotServedException;
import io.shelfmark.sql.SqlException;
import java.io.UncheckedIOException;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.ErrorFlightMetadata;

/**
 * A server's failure as a Flight (gRPC) status: a status code close to the failure's kind, the
 * failure's message as the description, and its {@link WireError} kind in the metadata, from which
 * the broker raises the same exception the in-process path raises.
 */
final class FailureStatus {
  private FailureStatus() {}

  static CallStatus of(Throwable failure) {
    WireError kind = kind(failure);
    String message =
        failure.getMessage() == null
            ? "Cannot execute query: internal error: " + failure
            : failure.getMessage();
    ErrorFlightMetadata metadata = new ErrorFlightMetadata();
    metadata.insert(WireError.METADATA_KEY, kind.name());
    return status(kind).withDescription(message).withMetadata(metadata);
  }

  static WireError kind(Throwable failure) {
    return switch (failure) {
      case QueryException query -> WireError.of(query);
      case WireFormatException wire -> WireError.WIRE_FORMAT;
      case NotServedException notServed -> WireError.NOT_SERVED;
      // Planning on the server failed where the broker's planning passed: the two disagree on the
      // table (another schema under the same id would be a bug), so it is the server's to report.
      case SqlException sql -> WireError.INTERNAL;
      case UncheckedIOException io -> WireError.ofCause(io.getCause()).orElse(WireError.STORAGE);
      default -> WireError.ofCause(failure).orElse(WireError.INTERNAL);
    };
  }

  private static CallStatus status(WireError kind) {
    return switch (kind) {
      case USER -> CallStatus.INVALID_ARGUMENT;
      case UNSUPPORTED -> CallStatus.UNIMPLEMENTED;
      case TIMEOUT -> CallStatus.TIMED_OUT;
      case CANCELLED -> CallStatus.CANCELLED;
      case RESOURCE_EXHAUSTED -> CallStatus.RESOURCE_EXHAUSTED;
      case NOT_SERVED -> CallStatus.NOT_FOUND;
      case WIRE_FORMAT -> CallStatus.INVALID_ARGUMENT;
      case INTERNAL, STORAGE, CORRUPT -> CallStatus.INTERNAL;
    };
  }
}
