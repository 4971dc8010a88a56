package io.shelfmark.cli.command;

import io.shelfmark.cli.node.BrokerNode;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code shelfmark broker --config FILE}: a broker process of a cluster. */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a broker of a cluster: SQL over HTTP on broker.http-port, routed by what the"
          + " controller publishes in ZooKeeper (zookeeper.connect), scattered to the servers over"
          + " Arrow Flight. Run as many as you like. See docs/cluster.md."
    })
public final class BrokerCommand extends RoleCommand {
  @Override
  String role() {
    return "broker";
  }

  @Override
  RoleNodes.Starter starter() {
    return (cluster, catalogs, store) -> {
      BrokerNode node = BrokerNode.start(cluster, catalogs, store);
      return new RoleNodes.Started() {
        @Override
        public Map<String, Integer> ports() {
          return Map.of(
              BrokerNode.HTTP_PORT, node.port(), BrokerNode.FLIGHT_PORT, node.flightPort());
        }

        @Override
        public void close() {
          node.close();
        }
      };
    };
  }
}
