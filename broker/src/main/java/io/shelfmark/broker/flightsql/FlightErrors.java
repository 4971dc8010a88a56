package io.shelfmark.broker.flightsql;

import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryErrorCode;
import java.util.List;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.ErrorFlightMetadata;
import org.apache.arrow.flight.FlightRuntimeException;

/**
 * A query's errors as a gRPC status: the status says the kind (a client's mistake, a missing table,
 * a timeout), the description carries Shelfmark's message with its error code and name (the ones
 * the HTTP API's {@code exceptions} carry, docs/http-api.md), and the trailers carry both again as
 * {@code shelfmark-error-code} and {@code shelfmark-error-type} for programs.
 */
final class FlightErrors {
  static final String CODE_KEY = "shelfmark-error-code";
  static final String TYPE_KEY = "shelfmark-error-type";

  private FlightErrors() {}

  static FlightRuntimeException of(List<QueryError> errors) {
    QueryError first = errors.getFirst();
    StringBuilder message = new StringBuilder();
    for (QueryError error : errors) {
      if (!message.isEmpty()) {
        message.append("; ");
      }
      message.append(error.message());
    }
    message
        .append(" [Shelfmark error ")
        .append(first.code().code())
        .append(' ')
        .append(first.code().name())
        .append(']');
    ErrorFlightMetadata metadata = new ErrorFlightMetadata();
    metadata.insert(CODE_KEY, Integer.toString(first.code().code()));
    metadata.insert(TYPE_KEY, first.code().name());
    return status(first.code())
        .withDescription(message.toString())
        .withMetadata(metadata)
        .toRuntimeException();
  }

  static FlightRuntimeException of(QueryErrorCode code, String message) {
    return of(List.of(new QueryError(code, message)));
  }

  static CallStatus status(QueryErrorCode code) {
    return switch (code) {
      case BAD_REQUEST, SQL_PARSING, UNKNOWN_COLUMN, QUERY_VALIDATION, QUERY_EXECUTION ->
          CallStatus.INVALID_ARGUMENT;
      case UNKNOWN_TABLE -> CallStatus.NOT_FOUND;
      case UNSUPPORTED -> CallStatus.UNIMPLEMENTED;
      case TOO_MANY_QUERIES, RESOURCE_EXHAUSTED -> CallStatus.RESOURCE_EXHAUSTED;
      case TIMEOUT -> CallStatus.TIMED_OUT;
      case CANCELLED -> CallStatus.CANCELLED;
      case STORAGE, UNAVAILABLE -> CallStatus.UNAVAILABLE;
      case CORRUPT, INTERNAL -> CallStatus.INTERNAL;
    };
  }
}
