package io.shelfmark.cluster.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestControllerLeadership {
  @TempDir Path directory;

  @Test
  void oneOfTwoControllersLeadsAndTheOtherTakesOverWhenItCloses() throws Exception {
    ZNodes nodes = new ZNodes("test");
    try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(directory, 0);
        CuratorFramework firstClient =
            CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded());
        CuratorFramework secondClient =
            CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded())) {
      ControllerLeadership first = ControllerLeadership.start(firstClient, nodes, "controller-1");
      assertThat(first.awaitLeadership(Duration.ofSeconds(10))).isTrue();
      ControllerLeadership second = ControllerLeadership.start(secondClient, nodes, "controller-2");
      try {
        assertThat(second.awaitLeadership(Duration.ofMillis(500)))
            .as("a standby while the first leads")
            .isFalse();
        assertThat(first.isLeader()).isTrue();

        firstClient.close(); // its session ends: the latch node goes with it

        await().atMost(Duration.ofSeconds(10)).until(second::isLeader);
        assertThat(second.toString()).isEqualTo("ControllerLeadership[controller-2, leader]");
      } finally {
        second.close();
      }
    }
  }
}
