package io.shelfmark.cluster.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestEmbeddedZooKeeper {
  @TempDir Path dataDir;

  @Test
  void keepsItsDataAcrossARestartInTheNodesDataDirectory() throws Exception {
    try (ClusterZooKeeper zookeeper = ClusterZooKeeper.start(ZooKeeperConfig.embedded(), dataDir)) {
      assertThat(zookeeper.embedded()).isPresent();
      zookeeper
          .client()
          .create()
          .creatingParentsIfNeeded()
          .forPath("/kept", "yes".getBytes(StandardCharsets.UTF_8));
    }
    assertThat(ClusterZooKeeper.embeddedDirectory(dataDir)).isDirectory();
    try (ClusterZooKeeper again = ClusterZooKeeper.start(ZooKeeperConfig.embedded(), dataDir)) {
      assertThat(new String(again.client().getData().forPath("/kept"), StandardCharsets.UTF_8))
          .isEqualTo("yes");
      // Below the namespace, as every Shelfmark path is.
      CuratorFramework raw = again.client().usingNamespace(null);
      assertThat(raw.checkExists().forPath("/" + CuratorClients.NAMESPACE + "/kept")).isNotNull();
    }
  }

  @Test
  void aTakenPortIsNamedInTheError() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      assertThatThrownBy(() -> EmbeddedZooKeeper.start(dataDir, taken.getLocalPort()))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith(
              "Cannot start the embedded ZooKeeper server on 127.0.0.1:" + taken.getLocalPort())
          .hasMessageContaining("zookeeper.port");
    }
  }

  @Test
  void anUnreachableEnsembleFailsWithinTheConnectionTimeout() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = free.getLocalPort();
    }
    ZooKeeperConfig config =
        new ZooKeeperConfig(
            Optional.of("127.0.0.1:" + port), 0, Duration.ofSeconds(2), Duration.ofMillis(500));
    assertThatThrownBy(() -> ClusterZooKeeper.start(config, dataDir))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "Cannot connect to ZooKeeper at 127.0.0.1:%d: no connection within PT0.5S (check"
                + " zookeeper.connect and that the ensemble is up)",
            port);
  }
}
