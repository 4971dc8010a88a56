package io.shelfmark.cluster.member;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestMembers {
  @TempDir Path directory;

  @Test
  void aMemberIsListedWhileItsSessionLivesAndGoneWhenItCloses() throws Exception {
    ZNodes nodes = new ZNodes("test");
    Member server =
        new Member("server@127.0.0.1:8098", List.of("server"), "127.0.0.1", Map.of("rpc", 8098), 1);
    try (EmbeddedZooKeeper zookeeper = EmbeddedZooKeeper.start(directory, 0);
        CuratorFramework watcher =
            CuratorClients.open(zookeeper.connectString(), ZooKeeperConfig.embedded())) {
      CuratorFramework member =
          CuratorClients.open(zookeeper.connectString(), ZooKeeperConfig.embedded());
      Members.register(member, nodes, server);
      assertThat(Members.live(watcher, nodes)).containsExactly(server);

      member.close(); // the session ends with the client: its ephemeral node goes

      await().atMost(Duration.ofSeconds(10)).until(() -> Members.live(watcher, nodes).isEmpty());
    }
  }
}
