package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How the broker's HTTP endpoint protects itself from connections that hold resources without
 * sending requests ({@code broker.http.*}). Every limit is answered: a request read too slowly gets
 * 408, a connection beyond a cap gets 503 before it is closed; an idle keep-alive connection is
 * closed (it has no request to answer).
 *
 * @param requestReadTimeout the longest time from a request's first byte until its headers and body
 *     have all arrived; a slower client (slowloris) gets 408 ({@code
 *     broker.http.request-read-timeout})
 * @param idleTimeout how long a connection may stay open with no request in progress ({@code
 *     broker.http.idle-timeout}); a query that runs longer is not affected
 * @param maxConnections the most open connections to this node ({@code
 *     broker.http.max-connections})
 * @param maxConnectionsPerClient the most open connections from one client address ({@code
 *     broker.http.max-connections-per-client})
 */
public record HttpConfig(
    Duration requestReadTimeout,
    Duration idleTimeout,
    int maxConnections,
    int maxConnectionsPerClient) {
  public static final Duration DEFAULT_REQUEST_READ_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(60);
  public static final int DEFAULT_MAX_CONNECTIONS = 2_000;
  public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 500;
  public static final Duration MIN_TIMEOUT = Duration.ofMillis(10);
  public static final int MAX_MAX_CONNECTIONS = 1_000_000;

  public HttpConfig {
    requireNonNull(requestReadTimeout, "requestReadTimeout is null");
    requireNonNull(idleTimeout, "idleTimeout is null");
    checkArgument(
        requestReadTimeout.compareTo(MIN_TIMEOUT) >= 0,
        "Cannot use broker.http.request-read-timeout: %s (expected at least 10ms)",
        requestReadTimeout);
    checkArgument(
        idleTimeout.compareTo(MIN_TIMEOUT) >= 0,
        "Cannot use broker.http.idle-timeout: %s (expected at least 10ms)",
        idleTimeout);
    checkArgument(
        maxConnections >= 1 && maxConnections <= MAX_MAX_CONNECTIONS,
        "Cannot use broker.http.max-connections: %s (expected 1 to %s)",
        maxConnections,
        MAX_MAX_CONNECTIONS);
    checkArgument(
        maxConnectionsPerClient >= 1 && maxConnectionsPerClient <= maxConnections,
        "Cannot use broker.http.max-connections-per-client: %s (expected 1 to"
            + " broker.http.max-connections, %s)",
        maxConnectionsPerClient,
        maxConnections);
  }

  /** 10s to read a request, 60s idle, 2,000 connections, 500 per client address. */
  public static HttpConfig defaults() {
    return new HttpConfig(
        DEFAULT_REQUEST_READ_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_CONNECTIONS,
        DEFAULT_MAX_CONNECTIONS_PER_CLIENT);
  }
}
