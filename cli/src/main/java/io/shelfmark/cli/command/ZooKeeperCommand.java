package io.shelfmark.cli.command;

import io.shelfmark.cli.process.ReadyFile;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code shelfmark zookeeper}: a standalone ZooKeeper server for a cluster on one machine (the
 * local cluster runs one); production clusters name an ensemble of their own ({@code
 * zookeeper.connect}).
 */
@Command(
    name = "zookeeper",
    mixinStandardHelpOptions = true,
    description = {
      "Run a standalone ZooKeeper server for a cluster on this machine (shelfmark cluster up"
          + " starts one) or on a deployed coordinator (--host: its address).",
      "Production clusters use an ensemble of their own: set zookeeper.connect in the cluster"
          + " config (see docs/operations.md)."
    })
public final class ZooKeeperCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--data-dir", required = true, description = "Where its data is kept.")
  Path dataDir;

  @Option(
      names = "--host",
      description =
          "The address it listens on: 127.0.0.1, or the coordinator's address for the other nodes"
              + " (default: ${DEFAULT-VALUE}).")
  String host = EmbeddedZooKeeper.LOOPBACK;

  @Option(names = "--port", description = "Its client port (default: ${DEFAULT-VALUE}).")
  int port = 2181;

  @Option(
      names = "--ready-file",
      description = "Written (pid and port, JSON) once it serves: for the process starting it.")
  Path readyFile;

  @Override
  public Integer call() throws Exception {
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(dataDir, host, port)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    stop.countDown();
                    try {
                      closed.await();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  },
                  "zookeeper-stop"));
      spec.commandLine()
          .getOut()
          .println(
              "ZooKeeper (pid "
                  + ProcessHandle.current().pid()
                  + ") is serving on "
                  + server.connectString()
                  + ", data in "
                  + dataDir.toAbsolutePath());
      spec.commandLine().getOut().flush();
      if (readyFile != null) {
        ReadyFile.of(Map.of("zookeeper", server.port())).write(readyFile);
      }
      stop.await();
    } finally {
      closed.countDown();
    }
    return 0;
  }
}
