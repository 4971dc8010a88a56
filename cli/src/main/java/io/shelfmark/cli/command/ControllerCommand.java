package io.shelfmark.cli.command;

import io.shelfmark.cli.node.ControllerNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark controller --config FILE}: a controller process of a cluster. */
@Command(
    name = "controller",
    mixinStandardHelpOptions = true,
    description = {
      "Run a controller of a cluster: onboarding, snapshot following, segment builds, and the"
          + " placement of segments on servers, with its state in ZooKeeper (zookeeper.connect).",
      "Run two or more for failover: one leads, the others stand by. Its admin API (table"
          + " onboard, table status) listens on controller.http-port. See docs/operations.md."
    })
public final class ControllerCommand implements Callable<Integer> {
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
        "controller",
        config,
        Optional.ofNullable(readyFile),
        spec.commandLine().getOut(),
        (cluster, catalogs, store) -> {
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
        });
  }
}
