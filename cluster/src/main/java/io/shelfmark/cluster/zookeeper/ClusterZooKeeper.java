package io.shelfmark.cluster.zookeeper;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;

/**
 * This process's way to the cluster state: a connected Curator client, and the embedded server it
 * talks to when {@code zookeeper.connect} is {@code embedded}. Closing closes the client, then the
 * server, so ephemeral nodes go with the session at once rather than after its timeout.
 */
public final class ClusterZooKeeper implements AutoCloseable {
  /** The embedded server's directory below the node's data directory. */
  public static final String EMBEDDED_DIRECTORY = "zookeeper";

  private final Optional<EmbeddedZooKeeper> embedded;
  private final CuratorFramework client;
  private final String connectString;

  private ClusterZooKeeper(
      Optional<EmbeddedZooKeeper> embedded, CuratorFramework client, String connectString) {
    this.embedded = embedded;
    this.client = client;
    this.connectString = connectString;
  }

  /**
   * Starts the embedded server when the config says so (its data in {@code <dataDir>/zookeeper}),
   * then connects.
   */
  public static ClusterZooKeeper start(ZooKeeperConfig config, Path dataDir) throws IOException {
    requireNonNull(config, "config is null");
    requireNonNull(dataDir, "dataDir is null");
    if (config.connect().isPresent()) {
      String connect = config.connect().get();
      return new ClusterZooKeeper(Optional.empty(), CuratorClients.open(connect, config), connect);
    }
    EmbeddedZooKeeper server = EmbeddedZooKeeper.start(embeddedDirectory(dataDir), config.port());
    try {
      CuratorFramework client = CuratorClients.open(server.connectString(), config);
      return new ClusterZooKeeper(Optional.of(server), client, server.connectString());
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** Where the embedded server of a node with {@code dataDir} keeps its data. */
  public static Path embeddedDirectory(Path dataDir) {
    return dataDir.toAbsolutePath().resolve(EMBEDDED_DIRECTORY);
  }

  /** The connected client; paths are relative to {@link CuratorClients#NAMESPACE}. */
  public CuratorFramework client() {
    return client;
  }

  /** The ensemble's connect string, or the embedded server's {@code 127.0.0.1:<port>}. */
  public String connectString() {
    return connectString;
  }

  public Optional<EmbeddedZooKeeper> embedded() {
    return embedded;
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      embedded.ifPresent(EmbeddedZooKeeper::close);
    }
  }

  @Override
  public String toString() {
    return "ClusterZooKeeper[" + connectString + (embedded.isPresent() ? ", embedded]" : "]");
  }
}
