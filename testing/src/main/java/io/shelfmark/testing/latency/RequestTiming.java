package io.shelfmark.testing.latency;

import static java.util.Objects.requireNonNull;

/**
 * One request that went through a {@link LatencyInjectingProxy}, as the proxy saw it.
 *
 * @param method the HTTP method, such as {@code GET}
 * @param uri the request target as sent (path and query)
 * @param status the final response status (never an interim 1xx)
 * @param startNanos {@link System#nanoTime()} when the request head reached the proxy
 * @param endNanos {@link System#nanoTime()} just before the last response byte was handed to the
 *     client's socket
 * @param requestBodyBytes body bytes received from the client (no headers, no chunk framing)
 * @param responseBodyBytes body bytes sent to the client (no headers, no chunk framing)
 */
public record RequestTiming(
    String method,
    String uri,
    int status,
    long startNanos,
    long endNanos,
    long requestBodyBytes,
    long responseBodyBytes) {
  public RequestTiming {
    requireNonNull(method, "method is null");
    requireNonNull(uri, "uri is null");
    if (endNanos < startNanos) {
      throw new IllegalArgumentException(
          "Cannot record request " + method + " " + uri + ": it ends before it starts");
    }
    if (requestBodyBytes < 0 || responseBodyBytes < 0) {
      throw new IllegalArgumentException(
          "Cannot record request " + method + " " + uri + ": negative byte count");
    }
  }

  /** The time from request head to last response byte, in nanoseconds. */
  public long durationNanos() {
    return endNanos - startNanos;
  }

  /** True when the two requests were in flight at the same time (touching counts as overlap). */
  public boolean overlaps(RequestTiming other) {
    return startNanos <= other.endNanos && other.startNanos <= endNanos;
  }
}
