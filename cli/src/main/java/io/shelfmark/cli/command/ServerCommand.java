package io.shelfmark.cli.command;

import io.shelfmark.server.node.ServerNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark broker --config FILE}: a server process of a cluster. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Run a server of a cluster: it serves the segments the controller assigns it in ZooKeeper"
          + " (zookeeper.connect), pinned under data-dir, and answers brokers' plan fragments over"
          + " Arrow Flight on server.rpc-port. See docs/operations.md."
    })
public final class ServerCommand implements Callable<Integer> {
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
        "server",
        config,
        Optional.ofNullable(readyFile),
        spec.commandLine().getOut(),
        (cluster, catalogs, store) -> {
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
        });
  }
}
