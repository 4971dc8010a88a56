package io.shelfmark.cli.command;

import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.cluster.ClusterProcess;
import io.shelfmark.cli.cluster.ClusterStatus;
import io.shelfmark.cli.cluster.LocalCluster;
import io.shelfmark.cli.cluster.ServerDrain;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.controller.state.StateRecovery;
import io.shelfmark.controller.state.ZooKeeperTableStateStore;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.curator.framework.CuratorFramework;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark cluster up|status|down}: a cluster of separate processes on this machine. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description =
        "Run a cluster of separate processes on this machine (ZooKeeper, a controller, a broker,"
            + " N servers) and see or stop it; recover the cluster state in ZooKeeper (see"
            + " docs/cluster-state.md).",
    subcommands = {
      ClusterCommand.Up.class,
      ClusterCommand.Status.class,
      ClusterCommand.Down.class,
      ClusterCommand.Restart.class,
      ClusterCommand.AddServer.class,
      ClusterCommand.Drain.class,
      ClusterCommand.Remove.class,
      ClusterCommand.Recover.class
    })
public final class ClusterCommand implements Runnable {
  @Spec CommandSpec spec;

  static final Path DEFAULT_RUN_DIR =
      Path.of(System.getProperty("user.home"), ".shelfmark", "cluster");

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The run directory option every cluster subcommand takes. */
  static final class RunDir {
    @Option(
        names = "--run-dir",
        description =
            "Where the cluster's configs, logs and data live (default: ~/.shelfmark/cluster).")
    Path runDir = DEFAULT_RUN_DIR;
  }

  /** {@code shelfmark cluster up}. */
  @Command(
      name = "up",
      mixinStandardHelpOptions = true,
      description = {
        "Start ZooKeeper, a controller, a broker and N servers on 127.0.0.1, each a process of"
            + " its own with its own data and cache directories under --run-dir.",
        "Without --config: over the local lake (embedded S3 and catalog, also a process), with"
            + " the benchmark table generated and onboarded. With --config: over the lake that"
            + " cluster config names (storage, catalog, segment store); onboard tables with"
            + " shelfmark table onboard --broker CONTROLLER-URL.",
        "Returns once the broker answers; the processes keep running (shelfmark cluster status,"
            + " shelfmark cluster down)."
      })
  public static final class Up implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @Option(names = "--servers", description = "Server processes (default: ${DEFAULT-VALUE}).")
    int servers = 3;

    @Option(
        names = "--controllers",
        description =
            "Controller processes: one leads, the others stand by (default: ${DEFAULT-VALUE}).")
    int controllers = 1;

    @Option(names = "--config", description = "A cluster config naming your own lake.")
    Path config;

    @Option(
        names = "--rows",
        description = "Rows of the generated benchmark table (default: ${DEFAULT-VALUE}).")
    long rows = 1_000_000;

    @Option(
        names = "--heap-mb",
        description = "Each role process's maximum heap in MiB (default: ${DEFAULT-VALUE}).")
    int heapMegabytes = 1024;

    @Override
    public Integer call() throws Exception {
      PrintStream out = printStream(spec);
      out.println("Starting a local cluster in " + dir.runDir.toAbsolutePath());
      List<ClusterProcess> processes =
          LocalCluster.up(
              new LocalCluster.Options(
                  dir.runDir,
                  servers,
                  controllers,
                  Optional.ofNullable(config),
                  rows,
                  heapMegabytes,
                  false),
              out);
      ClusterProcess broker =
          processes.stream().filter(p -> p.role().equals("broker")).findFirst().orElseThrow();
      ClusterProcess controller =
          processes.stream().filter(p -> p.role().equals("controller")).findFirst().orElseThrow();
      // Onboard through the leader; with several controllers, cluster status shows which leads.
      out.println();
      out.println("The cluster is up. Query it:");
      out.println(
          "  bin/shelfmark query --broker http://127.0.0.1:"
              + broker.httpPort().orElseThrow()
              + " \"SELECT COUNT(*) FROM obs.metrics\"");
      out.println(
          "  JDBC (Arrow Flight SQL): jdbc:arrow-flight-sql://127.0.0.1:"
              + broker.ports().get("broker-flight")
              + "/?useEncryption=false");
      out.println(
          "Onboard tables through the controller: bin/shelfmark table onboard TABLE-CONFIG"
              + " --broker http://127.0.0.1:"
              + controller.httpPort().orElseThrow());
      String runDir =
          dir.runDir.equals(DEFAULT_RUN_DIR) ? "" : " --run-dir " + dir.runDir.toAbsolutePath();
      out.println(
          "See it: bin/shelfmark cluster status"
              + runDir
              + "; stop it: bin/shelfmark cluster down"
              + runDir);
      out.flush();
      return 0;
    }
  }

  /** {@code shelfmark cluster status}. */
  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description =
          "One line per process of the local cluster: role, pid, health, ports, and what it"
              + " serves (from ZooKeeper).")
  public static final class Status implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @Override
    public Integer call() throws Exception {
      PrintStream out = printStream(spec);
      List<ClusterProcess> processes = LocalCluster.processes(dir.runDir);
      if (processes.isEmpty()) {
        out.println(
            "No cluster runs from " + dir.runDir.toAbsolutePath() + " (shelfmark cluster up)");
        return 1;
      }
      List<ClusterStatus.ProcessLine> lines = ClusterStatus.lines(processes);
      out.print(ClusterStatus.format(lines));
      out.flush();
      return lines.stream().allMatch(ClusterStatus.ProcessLine::alive) ? 0 : 1;
    }
  }

  /** {@code shelfmark cluster restart NAME}. */
  @Command(
      name = "restart",
      mixinStandardHelpOptions = true,
      description =
          "Start a role process of the local cluster again (after it died or was stopped), with its"
              + " config, ports and data directory.")
  public static final class Restart implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @picocli.CommandLine.Parameters(paramLabel = "NAME", description = "Such as server-2.")
    String name;

    @Option(
        names = "--heap-mb",
        description = "Its maximum heap in MiB (default: ${DEFAULT-VALUE}).")
    int heapMegabytes = 1024;

    @Override
    public Integer call() throws Exception {
      LocalCluster.restart(dir.runDir, name, heapMegabytes, printStream(spec));
      return 0;
    }
  }

  /** {@code shelfmark cluster add-server}. */
  @Command(
      name = "add-server",
      mixinStandardHelpOptions = true,
      description =
          "Start one more server in the local cluster; the controller moves its share of the"
              + " files to it (the other servers keep serving them until it does).")
  public static final class AddServer implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @Option(
        names = "--heap-mb",
        description = "Its maximum heap in MiB (default: ${DEFAULT-VALUE}).")
    int heapMegabytes = 1024;

    @Override
    public Integer call() throws Exception {
      LocalCluster.addServer(dir.runDir, heapMegabytes, printStream(spec));
      return 0;
    }
  }

  /** {@code shelfmark cluster drain NAME}. */
  @Command(
      name = "drain",
      mixinStandardHelpOptions = true,
      description = {
        "Take a server of the local cluster out of service without failing a query: the"
            + " controller places its files on the other servers, which serve them before it stops"
            + " being routed to. Waits until nothing is routed to it.",
        "The mark is kept in ZooKeeper (drains/<member id>) until --undo or cluster remove."
      })
  public static final class Drain implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @picocli.CommandLine.Parameters(
        paramLabel = "NAME",
        description =
            "Such as server-2; with --config, the server's member id (server@HOST:PORT, as its"
                + " log and the controller's log name it).")
    String name;

    @Option(
        names = "--config",
        paramLabel = "FILE",
        description =
            "Drain a server of a deployed cluster instead: the cluster config of any of its"
                + " nodes (its zookeeper.connect and cluster-name).")
    Path config;

    @Option(names = "--undo", description = "Clear the mark: the server gets files again.")
    boolean undo;

    @Option(
        names = "--wait-timeout",
        description =
            "Seconds to wait until nothing is routed to it; 0 returns at once (default:"
                + " ${DEFAULT-VALUE}).")
    long waitSeconds = 600;

    @Override
    public Integer call() throws Exception {
      Duration wait = Duration.ofSeconds(waitSeconds);
      if (config == null) {
        LocalCluster.drain(dir.runDir, name, undo, wait, printStream(spec));
        return 0;
      }
      ClusterConfig cluster = ConfigLoader.withSystemEnvironment().loadCluster(config);
      String connect =
          cluster
              .zookeeper()
              .connect()
              .filter(value -> !value.equals(ZooKeeperConfig.EMBEDDED))
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "Cannot drain through "
                              + config
                              + ": its zookeeper.connect is embedded (give the config of a node of"
                              + " the cluster, which names the ensemble)"));
      try (CuratorFramework client = CuratorClients.open(connect, cluster.zookeeper())) {
        new ServerDrain(client, new ZNodes(cluster.clusterName()))
            .apply(name, name, undo, wait, printStream(spec));
      }
      return 0;
    }
  }

  /** {@code shelfmark cluster remove NAME}. */
  @Command(
      name = "remove",
      mixinStandardHelpOptions = true,
      description =
          "Drain a server of the local cluster, then stop it and forget it: shrinks the cluster"
              + " without failing a query.")
  public static final class Remove implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @picocli.CommandLine.Parameters(paramLabel = "NAME", description = "Such as server-2.")
    String name;

    @Option(
        names = "--wait-timeout",
        description = "Seconds to wait for the drain (default: ${DEFAULT-VALUE}).")
    long waitSeconds = 600;

    @Override
    public Integer call() throws Exception {
      LocalCluster.remove(dir.runDir, name, Duration.ofSeconds(waitSeconds), printStream(spec));
      return 0;
    }
  }

  /** {@code shelfmark cluster down}. */
  @Command(
      name = "down",
      mixinStandardHelpOptions = true,
      description = "Stop every process of the local cluster (data stays in --run-dir).")
  public static final class Down implements Callable<Integer> {
    @Spec CommandSpec spec;

    @picocli.CommandLine.Mixin RunDir dir = new RunDir();

    @Override
    public Integer call() throws Exception {
      PrintStream out = printStream(spec);
      int stopped = LocalCluster.down(dir.runDir, out);
      out.println(
          stopped == 0
              ? "No process of a cluster in " + dir.runDir.toAbsolutePath() + " was running"
              : "Stopped " + stopped + " processes");
      out.flush();
      return 0;
    }
  }

  /** {@code shelfmark cluster recover --config FILE}. */
  @Command(
      name = "recover",
      mixinStandardHelpOptions = true,
      description = {
        "Rebuild the tables' state in ZooKeeper from the segment store and the catalog, after"
            + " ZooKeeper's data was lost: each table config copied beside the segments is"
            + " recorded again, with a ready record for each live data file whose segment is in"
            + " the store. Files without a segment are built when the node next serves the table.",
        "Stop the node first: with zookeeper.connect: embedded this runs the embedded server on"
            + " the node's data directory."
      })
  public static final class Recover implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--config", required = true, description = "The node's cluster config.")
    Path config;

    @Override
    public Integer call() throws Exception {
      ClusterConfig cluster = ConfigLoader.withSystemEnvironment().loadCluster(config);
      CatalogConfig catalogConfig =
          cluster
              .catalog()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "Cannot recover with "
                              + config
                              + ": it has no catalog section (recovery reads each table's"
                              + " snapshot from its catalog)"));
      PrintWriter out = spec.commandLine().getOut();
      try (ObjectStore store = ObjectStores.open(cluster.storage());
          ClusterZooKeeper zookeeper =
              ClusterZooKeeper.start(cluster.zookeeper(), cluster.dataDir())) {
        Catalog catalog = Catalogs.open(catalogConfig, store);
        try {
          List<StateRecovery.Recovered> recovered =
              StateRecovery.recover(
                  new ZooKeeperTableStateStore(
                      zookeeper.client(), new ZNodes(cluster.clusterName())),
                  SegmentStore.configured(store, cluster.segmentStore()),
                  Map.of(catalogConfig.name(), catalog));
          if (recovered.isEmpty()) {
            out.println(
                "No table config found in the segment store's _tables/ (nothing to recover;"
                    + " onboard the tables again)");
          }
          for (StateRecovery.Recovered table : recovered) {
            out.printf(
                Locale.ROOT,
                "Recovered %s at snapshot %d: %,d of %,d data files have their segment%n",
                table.table(),
                table.snapshotId(),
                table.segmentsFound(),
                table.dataFiles());
          }
        } finally {
          if (catalog instanceof AutoCloseable closeable) {
            closeable.close();
          }
        }
      }
      out.flush();
      return 0;
    }
  }

  /** Standard output: progress lines of a long start go there as they happen. */
  private static PrintStream printStream(CommandSpec spec) {
    spec.commandLine().getOut().flush();
    return System.out;
  }
}
