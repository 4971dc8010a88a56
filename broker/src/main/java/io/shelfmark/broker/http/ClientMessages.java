package io.shelfmark.broker.http;

import io.shelfmark.broker.query.QueryError;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a client may see of a failure. Messages of storage, corruption and internal errors are
 * written from exceptions that name local files and the object store's endpoint; the client gets
 * them without those, plus a request id, and the log keeps the full message under the same id.
 * Errors in the query itself (SQL, unsupported, timeout) already speak only of the query and pass
 * unchanged.
 */
final class ClientMessages {
  private static final Logger log = LoggerFactory.getLogger(ClientMessages.class);

  private static final Pattern ENDPOINT = Pattern.compile("(?i)\\bhttps?://[^\\s,;)\\]\"']+");
  private static final Pattern FILE_URI = Pattern.compile("(?i)\\bfile:/[^\\s,;)\\]\"']*");
  // An absolute path of two or more segments not inside a URI (s3://bucket/key stays: the lake's
  // own locations are what the user's table is made of).
  private static final Pattern LOCAL_PATH =
      Pattern.compile("(?<![\\w:/.])/(?:[\\w.@+-]+/)+[\\w.@+-]*");

  private static final String PREFIX =
      Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36), 36);
  private static final AtomicLong NEXT = new AtomicLong();

  private ClientMessages() {}

  /** A new request id, unique within the process and unlikely to repeat across restarts. */
  static String newRequestId() {
    return PREFIX + "-" + Long.toString(NEXT.incrementAndGet(), 36);
  }

  /** The response as the client may see it; logs the originals of what it changes. */
  static QueryResponse forClient(QueryResponse response, String requestId, String sql) {
    if (response.errors().stream().noneMatch(ClientMessages::revealsInternals)) {
      return response;
    }
    List<QueryError> errors = new ArrayList<>();
    for (QueryError error : response.errors()) {
      if (!revealsInternals(error)) {
        errors.add(error);
        continue;
      }
      log.warn("Query {} failed ({}): {} (SQL: {})", requestId, error.code(), error.message(), sql);
      errors.add(new QueryError(error.code(), scrub(error) + " (request id " + requestId + ")"));
    }
    return new QueryResponse(
        response.result(), errors, response.statistics(), response.partialResult());
  }

  /** The message of an error that escaped the query service, for the client. */
  static String internalError(String requestId) {
    return "Cannot execute query: internal error (request id "
        + requestId
        + "; the broker's log has the details)";
  }

  private static boolean revealsInternals(QueryError error) {
    return error.code() == QueryErrorCode.STORAGE
        || error.code() == QueryErrorCode.CORRUPT
        || error.code() == QueryErrorCode.INTERNAL;
  }

  private static String scrub(QueryError error) {
    if (error.code() == QueryErrorCode.INTERNAL) {
      // An internal error's message is a stack-trace fragment: nothing in it helps the client.
      return "Cannot execute query: internal error; the broker's log has the details";
    }
    String message = ENDPOINT.matcher(error.message()).replaceAll("<storage endpoint>");
    message = FILE_URI.matcher(message).replaceAll("<local file>");
    return LOCAL_PATH.matcher(message).replaceAll("<local file>");
  }
}
