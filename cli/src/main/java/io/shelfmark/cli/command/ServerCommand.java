package io.shelfmark.cli.command;

import io.shelfmark.server.node.ServerNode;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code shelfmark server --config FILE}: a server process of a cluster. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Run a server of a cluster: it serves the segments the controller assigns it in ZooKeeper"
          + " (zookeeper.connect), pinned under data-dir, and answers brokers' plan fragments over"
          + " Arrow Flight on server.rpc-port. See docs/cluster.md."
    })
public final class ServerCommand extends RoleCommand {
  @Override
  String role() {
    return "server";
  }

  @Override
  RoleNodes.Starter starter() {
    return (cluster, catalogs, store) -> {
      ServerNode node = ServerNode.start(cluster, catalogs, store);
      return new RoleNodes.Started() {
        @Override
        public Map<String, Integer> ports() {
          return Map.of(ServerNode.RPC_PORT, node.rpcPort());
        }

        @Override
        public void close() {
          node.close();
        }
      };
    };
  }
}
