package io.shelfmark.cli.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.node.NodeDirectory;
import io.shelfmark.broker.node.NodeStatus;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code GET /nodes} lists on a cluster's broker: itself, then the live members. */
class TestNodeStatuses {
  @TempDir Path directory;

  @Test
  void aClusterBrokerListsItselfThenEveryOtherLiveMember() throws Exception {
    ZNodes nodes = new ZNodes("console");
    Member broker =
        new Member(
            "broker@10.0.0.1:8099",
            List.of("broker"),
            "10.0.0.1",
            Map.of("broker-http", 8099),
            1_000);
    Member server =
        new Member(
            "server@10.0.0.2:8098",
            List.of("server"),
            "10.0.0.2",
            Map.of("server-rpc", 8098),
            2_000);
    Member controller =
        new Member("controller@10.0.0.3/7", List.of("controller"), "10.0.0.3", Map.of(), 3_000);
    try (ClusterZooKeeper zookeeper =
            ClusterZooKeeper.start(ZooKeeperConfig.embedded(), directory);
        AutoCloseable registeredBroker = Members.register(zookeeper.client(), nodes, broker);
        AutoCloseable registeredServer = Members.register(zookeeper.client(), nodes, server);
        AutoCloseable registeredController =
            Members.register(zookeeper.client(), nodes, controller)) {
      NodeDirectory directory =
          NodeStatuses.cluster(
              zookeeper.client(),
              nodes,
              NodeStatuses.local(() -> broker, HealthMonitor.none(), () -> -1, null));

      List<NodeStatus> listed = directory.nodes();

      assertThat(listed)
          .extracting(NodeStatus::id)
          .containsExactly(broker.id(), controller.id(), server.id());
      assertThat(listed.getFirst().health()).isEqualTo("OK");
      assertThat(listed.getFirst().cache()).isEmpty();
      NodeStatus other = listed.get(2);
      assertThat(other.health()).isEqualTo("LIVE");
      assertThat(other.roles()).containsExactly("server");
      assertThat(other.ports()).isEqualTo(Map.of("server-rpc", 8098));
      assertThat(other.startedAtMillis()).isEqualTo(2_000);
      assertThat(other.segments()).isEqualTo(-1);

      registeredServer.close();
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(directory.nodes())
                      .as("a member that left is gone")
                      .extracting(NodeStatus::id)
                      .containsExactly(broker.id(), controller.id()));
    }
  }
}
