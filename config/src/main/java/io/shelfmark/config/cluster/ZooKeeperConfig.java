package io.shelfmark.config.cluster;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where the cluster's state lives ({@code zookeeper.*}): in a ZooKeeper server embedded in this
 * process, its data under the node's data directory ({@code zookeeper.connect: embedded}, the
 * default, for {@code all-in-one} and the quickstart), or in an external ensemble named by a
 * connect string ({@code zookeeper.connect: zk1:2181,zk2:2181,zk3:2181}).
 *
 * @param connect the ensemble's connect string; empty for the embedded server ({@code
 *     zookeeper.connect})
 * @param port the embedded server's client port on 127.0.0.1; 0 picks a free one at each start
 *     ({@code zookeeper.port}; only with the embedded server)
 * @param sessionTimeout how long ZooKeeper keeps a silent client's session, and so its live-member
 *     node and its leadership ({@code zookeeper.session-timeout})
 * @param connectionTimeout how long a client waits for a connection before giving up ({@code
 *     zookeeper.connection-timeout})
 */
public record ZooKeeperConfig(
    Optional<String> connect, int port, Duration sessionTimeout, Duration connectionTimeout) {
  /** The value of {@code zookeeper.connect} that selects the embedded server. */
  public static final String EMBEDDED = "embedded";

  public static final int ANY_FREE_PORT = 0;
  public static final int MAX_PORT = 65535;
  public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(15);
  public static final Duration MIN_SESSION_TIMEOUT = Duration.ofSeconds(2);
  public static final Duration MAX_SESSION_TIMEOUT = Duration.ofMinutes(10);
  public static final Duration DEFAULT_CONNECTION_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(100);

  /** {@code host:port} entries separated by commas, such as {@code zk1:2181,zk2:2181}. */
  public static final Pattern CONNECT_STRING_PATTERN =
      Pattern.compile("[A-Za-z0-9._\\[\\]:-]+:\\d{1,5}(,[A-Za-z0-9._\\[\\]:-]+:\\d{1,5})*");

  public ZooKeeperConfig {
    requireNonNull(connect, "connect is null");
    requireNonNull(sessionTimeout, "sessionTimeout is null");
    requireNonNull(connectionTimeout, "connectionTimeout is null");
    connect.ifPresent(
        text ->
            checkArgument(
                isValidConnectString(text),
                "Cannot use zookeeper.connect: \"%s\" (expected embedded, or host:port entries"
                    + " separated by commas such as zk1:2181,zk2:2181)",
                text));
    checkArgument(
        port >= ANY_FREE_PORT && port <= MAX_PORT,
        "Cannot use zookeeper.port: %s (expected 1 to 65535, or 0 for any free port)",
        port);
    checkArgument(
        sessionTimeout.compareTo(MIN_SESSION_TIMEOUT) >= 0
            && sessionTimeout.compareTo(MAX_SESSION_TIMEOUT) <= 0,
        "Cannot use zookeeper.session-timeout: %s (expected 2s to 10m)",
        sessionTimeout);
    checkArgument(
        connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) >= 0,
        "Cannot use zookeeper.connection-timeout: %s (expected at least 100ms)",
        connectionTimeout);
  }

  /** The embedded server on a free port, with the default timeouts. */
  public static ZooKeeperConfig embedded() {
    return new ZooKeeperConfig(
        Optional.empty(), ANY_FREE_PORT, DEFAULT_SESSION_TIMEOUT, DEFAULT_CONNECTION_TIMEOUT);
  }

  /** An external ensemble, with the default timeouts. */
  public static ZooKeeperConfig ensemble(String connect) {
    return new ZooKeeperConfig(
        Optional.of(connect), ANY_FREE_PORT, DEFAULT_SESSION_TIMEOUT, DEFAULT_CONNECTION_TIMEOUT);
  }

  /** Whether this process runs its own ZooKeeper server. */
  public boolean isEmbedded() {
    return connect.isEmpty();
  }

  /** Whether {@code text} is a connect string: {@code host:port} entries, ports 1 to 65535. */
  public static boolean isValidConnectString(String text) {
    requireNonNull(text, "text is null");
    if (!CONNECT_STRING_PATTERN.matcher(text).matches()) {
      return false;
    }
    for (String entry : text.split(",")) {
      int port = Integer.parseInt(entry.substring(entry.lastIndexOf(':') + 1));
      if (port < 1 || port > MAX_PORT) {
        return false;
      }
    }
    return true;
  }
}
