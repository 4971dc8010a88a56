package io.shelfmark.cli.command;

import io.shelfmark.cli.node.ControllerNode;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code shelfmark controller --config FILE}: a controller process of a cluster. */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    description = {
      "Run a controller of a cluster: onboarding, snapshot following, segment builds, and the"
          + " placement of segments on servers, with its state in ZooKeeper (zookeeper.connect).",
      "Run two or more for failover: one leads, the others stand by. Its admin API (table"
          + " onboard, table status) listens on controller.http-port. See docs/cluster.md."
    })
public final class ControllerCommand extends RoleCommand {
  @Override
  String role() {
    return "controller";
  }

  @Override
  RoleNodes.Starter starter() {
    return (cluster, catalogs, store) -> {
      ControllerNode node = ControllerNode.start(cluster, catalogs, store);
      return new RoleNodes.Started() {
        @Override
        public Map<String, Integer> ports() {
          return Map.of(ControllerNode.HTTP_PORT, node.port());
        }

        @Override
        public void close() {
          node.close();
        }
      };
    };
  }
}
