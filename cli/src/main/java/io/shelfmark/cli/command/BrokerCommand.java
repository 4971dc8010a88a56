package io.shelfmark.cli.command;

import io.shelfmark.cli.node.BrokerNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark broker --config FILE}: a broker process of a cluster. */
@Command(
    name = "broker",
    mixinStandardHelpOptions = true,
    description = {
      "Run a broker of a cluster: SQL over HTTP on broker.http-port, routed by what the"
          + " controller publishes in ZooKeeper (zookeeper.connect), scattered to the servers over"
          + " Arrow Flight. Run as many as you like. See docs/operations.md."
    })
public final class BrokerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--config",
      required = true,
      description = "The cluster config (YAML or JSON; SHELFMARK_* variables override keys).")
  Path config;

  @Option(
      names = "--ready-file",
      description = "Written (pid and ports, JSON) once it serves: for the process starting it.")
  Path readyFile;

  @Override
  public Integer call() throws Exception {
    return RoleNodes.run(
        "broker",
        config,
        Optional.ofNullable(readyFile),
        spec.commandLine().getOut(),
        (cluster, catalogs, store) -> {
          BrokerNode node = BrokerNode.start(cluster, catalogs, store);
          return new RoleNodes.Started() {
            @Override
            public Map<String, Integer> ports() {
              return Map.of(BrokerNode.HTTP_PORT, node.port());
            }

            @Override
            public void close() {
              node.close();
            }
          };
        });
  }
}
