package io.shelfmark.cluster.zookeeper;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Opens Curator clients the way every Shelfmark process uses them: under the namespace {@value
 * #NAMESPACE} (so one ensemble can hold other applications' data beside ours), with the session and
 * connection timeouts of {@code zookeeper.*}, and retrying a lost connection with exponential
 * backoff (100 ms doubling, up to {@value #MAX_RETRIES} times, at most {@value #MAX_SLEEP_MILLIS}
 * ms apart) — a ZooKeeper leader election or a short network break must not fail an operation that
 * would succeed a second later.
 */
public final class CuratorClients {
  /** Every path Shelfmark writes is below {@code /shelfmark} in the ensemble. */
  public static final String NAMESPACE = "shelfmark";

  static final int BASE_SLEEP_MILLIS = 100;
  static final int MAX_RETRIES = 10;
  static final int MAX_SLEEP_MILLIS = 5_000;

  private CuratorClients() {}

  /**
   * A started client of {@code connectString}, connected.
   *
   * @throws IOException when no connection is made within the connection timeout (the client is
   *     closed)
   */
  public static CuratorFramework open(String connectString, ZooKeeperConfig config)
      throws IOException {
    requireNonNull(connectString, "connectString is null");
    requireNonNull(config, "config is null");
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(connectString)
            .namespace(NAMESPACE)
            .sessionTimeoutMs(millis(config.sessionTimeout()))
            .connectionTimeoutMs(
                Math.min(millis(config.connectionTimeout()), millis(config.sessionTimeout())))
            .retryPolicy(
                new ExponentialBackoffRetry(BASE_SLEEP_MILLIS, MAX_RETRIES, MAX_SLEEP_MILLIS))
            .build();
    client.start();
    boolean connected;
    try {
      connected =
          client
              .getZookeeperClient()
              .blockUntilConnectedOrTimedOut(); // waits the connection timeout at most
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      client.close();
      throw new IOException("Interrupted while connecting to ZooKeeper at " + connectString, e);
    }
    if (!connected) {
      client.close();
      throw new IOException(
          "Cannot connect to ZooKeeper at %s: no connection within %s (check zookeeper.connect and that the ensemble is up)"
              .formatted(connectString, config.connectionTimeout()));
    }
    return client;
  }

  private static int millis(Duration duration) {
    return (int) Math.min(Integer.MAX_VALUE, duration.toMillis());
  }
}
