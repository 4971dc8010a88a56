package io.shelfmark.cli.cluster;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.shelfmark.catalog.Catalogs;
import io.shelfmark.cli.Shelfmark;
import io.shelfmark.cli.client.BrokerClient;
import io.shelfmark.cli.client.BrokerClientException;
import io.shelfmark.cli.process.ChildJvm;
import io.shelfmark.cli.process.ReadyFile;
import io.shelfmark.cli.progress.ProgressLine;
import io.shelfmark.cluster.member.Drains;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.Role;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.render.NodeSettings;
import io.shelfmark.config.render.RoleConfigs;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.ExistingTablePolicy;
import io.shelfmark.generator.GenerateReport;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.server.node.ServerNode;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * A cluster of separate processes on this machine, for newcomers and tests: ZooKeeper, a
 * controller, a broker and N servers on 127.0.0.1, each a JVM of its own with its own data and
 * cache directories under the run directory, over the local lake (an embedded S3 server and
 * catalog, with the benchmark table generated into it) or over the lake a cluster config names.
 *
 * <p>The processes outlive the command that starts them (each in a session of its own, its standard
 * input from {@code /dev/null}); {@code cluster.json} in the run directory records them, so that
 * {@code cluster status} and {@code cluster down} find them again.
 *
 * <pre>
 * &lt;run dir&gt;/cluster.json        the processes: name, role, pid, ports, config, log
 * &lt;run dir&gt;/config/&lt;name&gt;.yaml   each process's cluster config
 * &lt;run dir&gt;/logs/&lt;name&gt;.log     each process's output
 * &lt;run dir&gt;/&lt;name&gt;/            each process's data directory (segments, cache, ZooKeeper data)
 * </pre>
 */
public final class LocalCluster {
  static final String STATE_FILE = "cluster.json";

  /** The cluster name of every local cluster ({@code cluster-name}). */
  public static final String CLUSTER_NAME = "local";

  static final Duration START_TIMEOUT = Duration.ofMinutes(2);
  static final Duration READY_TIMEOUT = Duration.ofMinutes(15);
  static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  static final Duration SESSION_TIMEOUT = Duration.ofSeconds(4);

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private LocalCluster() {}

  /**
   * Options of {@code cluster up}.
   *
   * @param runDir where the cluster's files go
   * @param servers how many server processes
   * @param controllers how many controller processes (one leads, the others stand by)
   * @param config the lake a cluster config names (storage, catalog, segment store); empty for the
   *     local lake with the benchmark table
   * @param rows rows of the benchmark table generated into the local lake
   * @param heapMegabytes each role process's maximum heap
   * @param diskCacheMaxSize each process's disk cache tier ({@code cache.disk.max-size}; 0 turns
   *     the servers' page cache off, as the benchmark's pinned mode does)
   */
  public record Options(
      Path runDir,
      int servers,
      int controllers,
      Optional<Path> config,
      long rows,
      int heapMegabytes,
      boolean quiet,
      DataSize diskCacheMaxSize) {
    /** The disk cache tier of each process unless told otherwise. */
    public static final DataSize DEFAULT_DISK_CACHE = DataSize.of(1, DataSize.Unit.GIBIBYTE);

    public Options {
      requireNonNull(runDir, "runDir is null");
      requireNonNull(config, "config is null");
      requireNonNull(diskCacheMaxSize, "diskCacheMaxSize is null");
      if (controllers < 1) {
        throw new IllegalArgumentException(
            "Cannot start a cluster of "
                + controllers
                + " controllers (--controllers: at least 1)");
      }
      if (servers < 1) {
        throw new IllegalArgumentException(
            "Cannot start a cluster of " + servers + " servers (--servers: at least 1)");
      }
    }

    /** Options with the default disk cache tier. */
    public Options(
        Path runDir,
        int servers,
        int controllers,
        Optional<Path> config,
        long rows,
        int heapMegabytes,
        boolean quiet) {
      this(runDir, servers, controllers, config, rows, heapMegabytes, quiet, DEFAULT_DISK_CACHE);
    }
  }

  /**
   * Starts every process and returns them once the broker answers queries over the table (the
   * benchmark table in the local lake); stops what it started when any step fails.
   *
   * @throws IOException naming the process and its log when one does not start
   */
  public static List<ClusterProcess> up(Options options, PrintStream out) throws IOException {
    Path runDir = options.runDir().toAbsolutePath().normalize();
    List<ClusterProcess> running = alive(runDir);
    if (!running.isEmpty()) {
      throw new IOException(
          "Cannot start a cluster in "
              + runDir
              + ": "
              + running.size()
              + " of its processes still run (see shelfmark cluster status; stop them with"
              + " shelfmark cluster down)");
    }
    Files.createDirectories(runDir.resolve("config"));
    Files.createDirectories(runDir.resolve("logs"));
    List<ClusterProcess> started = new ArrayList<>();
    try {
      ClusterConfig lake;
      Optional<TableConfig> table;
      if (options.config().isPresent()) {
        lake = ConfigLoader.withSystemEnvironment().loadCluster(options.config().get());
        table = Optional.empty();
      } else {
        ClusterProcess lakeProcess = startLake(runDir, out);
        started.add(lakeProcess);
        save(runDir, started);
        lake =
            ConfigLoader.withoutEnvironment().loadCluster(lakeProcess.configFile().orElseThrow());
        TableConfig benchmark =
            ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE);
        generate(lake, benchmark, options, out);
        table = Optional.of(benchmark);
      }

      ClusterProcess zookeeper = startZooKeeper(runDir, out);
      started.add(zookeeper);
      save(runDir, started);
      String connect = "127.0.0.1:" + zookeeper.ports().get("zookeeper");

      ClusterProcess controller = null;
      for (int i = 1; i <= options.controllers(); i++) {
        String name = options.controllers() == 1 ? "controller" : "controller-" + i;
        ClusterProcess started1 =
            startRole(runDir, name, Role.CONTROLLER, lake, connect, options, out);
        controller = controller == null ? started1 : controller;
        started.add(started1);
        save(runDir, started);
      }
      for (int i = 1; i <= options.servers(); i++) {
        started.add(startRole(runDir, "server-" + i, Role.SERVER, lake, connect, options, out));
        save(runDir, started);
      }
      ClusterProcess broker = startRole(runDir, "broker", Role.BROKER, lake, connect, options, out);
      started.add(broker);
      save(runDir, started);

      if (table.isPresent()) {
        onboard(controller, broker, table.get(), options.quiet(), out);
      }
      return List.copyOf(started);
    } catch (IOException | RuntimeException e) {
      stopAll(started, out);
      Files.deleteIfExists(runDir.resolve(STATE_FILE));
      throw e;
    }
  }

  /** The processes {@code cluster up} recorded in {@code runDir}; empty when it has none. */
  public static List<ClusterProcess> processes(Path runDir) throws IOException {
    Path state = runDir.resolve(STATE_FILE);
    if (!Files.exists(state)) {
      return List.of();
    }
    return JSON.readValue(state.toFile(), new TypeReference<List<ClusterProcess>>() {});
  }

  /**
   * Starts a role process of the cluster in {@code runDir} again after it died or was stopped, with
   * its config (so its ports, member id and data directory are the same: a server finds its pinned
   * segments).
   *
   * @throws IOException when there is no such process, it still runs, or it does not start
   */
  public static ClusterProcess restart(Path runDir, String name, int heapMegabytes, PrintStream out)
      throws IOException {
    List<ClusterProcess> processes = new ArrayList<>(processes(runDir));
    int index = -1;
    for (int i = 0; i < processes.size(); i++) {
      if (processes.get(i).name().equals(name)) {
        index = i;
      }
    }
    if (index < 0) {
      throw new IOException(
          "Cannot restart "
              + name
              + ": the cluster in "
              + runDir
              + " has no such process (it has "
              + String.join(", ", processes.stream().map(ClusterProcess::name).toList())
              + ")");
    }
    ClusterProcess old = processes.get(index);
    if (old.alive()) {
      throw new IOException(
          "Cannot restart " + name + ": it still runs (pid " + old.pid() + "; stop it first)");
    }
    Path config =
        old.configFile()
            .orElseThrow(
                () ->
                    new IOException(
                        "Cannot restart "
                            + name
                            + ": only the role processes (controller, server, broker) restart"
                            + " alone; run cluster down and up"));
    ClusterProcess started =
        awaitReady(
            runDir,
            name,
            old.role(),
            Optional.of(config),
            List.of("-Xmx" + heapMegabytes + "m"),
            List.of(old.role(), "--config=" + config),
            out);
    processes.set(index, started);
    save(runDir, processes);
    return started;
  }

  /**
   * Starts one more server, named {@code server-<n+1>}, with the storage, catalog and segment store
   * of the cluster's other servers; the controller leader then moves its share of the files to it.
   */
  public static ClusterProcess addServer(Path runDir, int heapMegabytes, PrintStream out)
      throws IOException {
    List<ClusterProcess> processes = new ArrayList<>(processes(runDir));
    ClusterProcess zookeeper = running(runDir, processes, "zookeeper");
    ClusterProcess model =
        processes.stream()
            .filter(p -> p.role().equals(Role.SERVER.configName()) && p.configFile().isPresent())
            .findFirst()
            .orElseThrow(
                () ->
                    new IOException("Cannot add a server: the cluster in " + runDir + " has none"));
    ClusterConfig lake = ConfigLoader.withoutEnvironment().loadCluster(model.configFile().get());
    int number = 1;
    while (true) {
      String candidate = "server-" + number;
      if (processes.stream().noneMatch(p -> p.name().equals(candidate))) {
        break;
      }
      number++;
    }
    Options options =
        new Options(runDir, 1, 1, Optional.empty(), 0, heapMegabytes, /* quiet= */ true);
    ClusterProcess started =
        startRole(
            runDir,
            "server-" + number,
            Role.SERVER,
            lake,
            zookeeperConnect(zookeeper),
            options,
            out);
    processes.add(started);
    save(runDir, processes);
    return started;
  }

  /**
   * Marks the server {@code name} drained (or clears the mark with {@code undo}) and, with {@code
   * wait}, waits until no file is routed or assigned to it any more.
   */
  public static void drain(Path runDir, String name, boolean undo, Duration wait, PrintStream out)
      throws IOException {
    List<ClusterProcess> processes = processes(runDir);
    ClusterProcess server = process(runDir, processes, name);
    String member = memberId(server);
    try (CuratorFramework client = zookeeperClient(running(runDir, processes, "zookeeper"))) {
      new ServerDrain(client, new ZNodes(CLUSTER_NAME))
          .apply(name + " (" + member + ")", member, undo, wait, out);
    }
  }

  /**
   * Drains the server {@code name}, then stops it and forgets it: the way to shrink the cluster
   * without failing a query.
   */
  public static void remove(Path runDir, String name, Duration wait, PrintStream out)
      throws IOException {
    List<ClusterProcess> processes = new ArrayList<>(processes(runDir));
    ClusterProcess server = process(runDir, processes, name);
    if (!server.role().equals(Role.SERVER.configName())) {
      throw new IOException(
          "Cannot remove "
              + name
              + ": only servers leave a running cluster (it is a "
              + server.role()
              + ")");
    }
    if (server.alive()) {
      drain(runDir, name, false, wait, out);
    }
    stopAll(List.of(server), out);
    processes.remove(server);
    save(runDir, processes);
    try (CuratorFramework client = zookeeperClient(running(runDir, processes, "zookeeper"))) {
      // The process is gone for good: its mark would only keep a later server of the same
      // address (and member id) from getting files.
      Drains.clear(client, new ZNodes(CLUSTER_NAME), memberId(server));
    }
    out.println("  removed " + name);
  }

  /** The member id a server process registers with: its role, host and Flight port. */
  static String memberId(ClusterProcess server) throws IOException {
    Integer port = server.ports().get(ServerNode.RPC_PORT);
    if (port == null) {
      throw new IOException(
          "Cannot name the member of "
              + server.name()
              + ": it is not a server (no "
              + ServerNode.RPC_PORT
              + " port)");
    }
    return ServerNode.ROLE + "@127.0.0.1:" + port;
  }

  private static ClusterProcess process(Path runDir, List<ClusterProcess> processes, String name)
      throws IOException {
    return processes.stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IOException(
                    "Cannot find "
                        + name
                        + " in the cluster in "
                        + runDir
                        + " (it has "
                        + String.join(", ", processes.stream().map(ClusterProcess::name).toList())
                        + ")"));
  }

  private static ClusterProcess running(Path runDir, List<ClusterProcess> processes, String name)
      throws IOException {
    ClusterProcess process = process(runDir, processes, name);
    if (!process.alive()) {
      throw new IOException(
          "Cannot reach the cluster in "
              + runDir
              + ": its "
              + name
              + " is not running (cluster status)");
    }
    return process;
  }

  private static String zookeeperConnect(ClusterProcess zookeeper) {
    return "127.0.0.1:" + zookeeper.ports().get("zookeeper");
  }

  static CuratorFramework zookeeperClient(ClusterProcess zookeeper) throws IOException {
    String connect = zookeeperConnect(zookeeper);
    return CuratorClients.open(
        connect,
        new ZooKeeperConfig(Optional.of(connect), 0, Duration.ofSeconds(5), Duration.ofSeconds(3)));
  }

  /** Stops every process of the cluster in {@code runDir}, the broker first and the lake last. */
  public static int down(Path runDir, PrintStream out) throws IOException {
    List<ClusterProcess> processes = processes(runDir);
    int stopped = stopAll(processes, out);
    Files.deleteIfExists(runDir.resolve(STATE_FILE));
    return stopped;
  }

  private static List<ClusterProcess> alive(Path runDir) throws IOException {
    return processes(runDir).stream().filter(ClusterProcess::alive).toList();
  }

  private static int stopAll(List<ClusterProcess> processes, PrintStream out) {
    int stopped = 0;
    for (ClusterProcess process : processes.reversed()) {
      Optional<ProcessHandle> handle = ProcessHandle.of(process.pid());
      if (handle.isPresent() && handle.get().isAlive()) {
        boolean clean = ChildJvm.stop(handle.get(), STOP_TIMEOUT);
        out.printf(
            Locale.ROOT,
            "  stopped %-12s (pid %d)%s%n",
            process.name(),
            process.pid(),
            clean ? "" : ", killed after " + STOP_TIMEOUT.toSeconds() + " s");
        stopped++;
      }
    }
    return stopped;
  }

  private static void save(Path runDir, List<ClusterProcess> processes) throws IOException {
    ChildJvm.writeAtomically(runDir.resolve(STATE_FILE), JSON.writeValueAsString(processes));
  }

  private static ClusterProcess startLake(Path runDir, PrintStream out) throws IOException {
    Path config = runDir.resolve("config/lake.yaml");
    Files.deleteIfExists(config);
    Process process =
        launch(
            runDir,
            "lake",
            List.of("-Xmx512m"),
            List.of(
                "lake",
                "--data-dir=" + runDir.resolve("lake"),
                "--s3-port=0",
                "--config-file=" + config));
    Path log = logOf(runDir, "lake");
    ChildJvm.awaitFile(process, config, START_TIMEOUT, "the lake", log);
    ClusterProcess lake =
        new ClusterProcess("lake", "lake", process.pid(), Map.of(), Optional.of(config), log);
    out.printf(Locale.ROOT, "  started %-12s (pid %d)%n", "lake", process.pid());
    return lake;
  }

  private static ClusterProcess startZooKeeper(Path runDir, PrintStream out) throws IOException {
    int port = freePort();
    return awaitReady(
        runDir,
        "zookeeper",
        "zookeeper",
        Optional.empty(),
        List.of("-Xmx256m"),
        List.of("zookeeper", "--data-dir=" + runDir.resolve("zookeeper"), "--port=" + port),
        out);
  }

  private static ClusterProcess startRole(
      Path runDir,
      String name,
      Role role,
      ClusterConfig lake,
      String zookeeper,
      Options options,
      PrintStream out)
      throws IOException {
    Path dataDir = runDir.resolve(name);
    // The same renderer as config render (a deployed node's bootstrap), with this machine's
    // settings: 127.0.0.1, free ports, small caches.
    NodeSettings node =
        new NodeSettings(
            CLUSTER_NAME,
            "127.0.0.1",
            new PortsConfig(freePort(), freePort(), freePort(), freePort()),
            lake.storage(),
            lake.catalog()
                .orElseThrow(
                    () ->
                        new IOException(
                            "Cannot start the cluster: its config names no catalog (catalog section)")),
            lake.segmentStore(),
            // A short session: a killed process leaves the cluster (and a killed leader its
            // leadership) seconds after, not the default 15 s; 127.0.0.1 has no network to wait
            // out.
            new ZooKeeperConfig(
                Optional.of(zookeeper),
                ZooKeeperConfig.ANY_FREE_PORT,
                SESSION_TIMEOUT,
                ZooKeeperConfig.DEFAULT_CONNECTION_TIMEOUT),
            false);
    CacheConfig cache =
        CacheConfig.builder()
            .memoryMaxSize(DataSize.of(256, DataSize.Unit.MEBIBYTE))
            .diskMaxSize(options.diskCacheMaxSize())
            .build(dataDir);
    Path file = runDir.resolve("config/" + name + ".yaml");
    Files.writeString(file, RoleConfigs.render(node, role, dataDir, cache));
    return awaitReady(
        runDir,
        name,
        role.configName(),
        Optional.of(file),
        List.of("-Xmx" + options.heapMegabytes() + "m"),
        List.of(role.configName(), "--config=" + file),
        out);
  }

  private static ClusterProcess awaitReady(
      Path runDir,
      String name,
      String role,
      Optional<Path> config,
      List<String> memory,
      List<String> arguments,
      PrintStream out)
      throws IOException {
    Path ready = runDir.resolve("logs/" + name + ".ready");
    Files.deleteIfExists(ready);
    List<String> withReady = new ArrayList<>(arguments);
    withReady.add("--ready-file=" + ready);
    Process process = launch(runDir, name, memory, withReady);
    Path log = logOf(runDir, name);
    ReadyFile file = ReadyFile.await(process, ready, START_TIMEOUT, "the " + name, log);
    out.printf(Locale.ROOT, "  started %-12s (pid %d) %s%n", name, process.pid(), file.ports());
    return new ClusterProcess(name, role, process.pid(), file.ports(), config, log);
  }

  /** Starts a JVM running {@code shelfmark ARGUMENTS}, in a session of its own when it can. */
  private static Process launch(
      Path runDir, String name, List<String> memory, List<String> arguments) throws IOException {
    List<String> command = new ArrayList<>();
    // A session of its own: Ctrl-C in the terminal that ran cluster up does not reach it.
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      command.add("/usr/bin/setsid");
    }
    command.addAll(ChildJvm.command(memory, Shelfmark.class.getName(), arguments));
    return new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectErrorStream(true)
        // Appended: a restarted process's log keeps what its earlier run wrote.
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logOf(runDir, name).toFile()))
        .start();
  }

  private static Path logOf(Path runDir, String name) {
    return runDir.resolve("logs/" + name + ".log");
  }

  private static void generate(
      ClusterConfig lake, TableConfig table, Options options, PrintStream out) throws IOException {
    try (ObjectStore store = ObjectStores.open(lake.storage())) {
      Catalog catalog = Catalogs.open(lake.catalog().orElseThrow(), store);
      try {
        TableIdentifier id =
            TableIdentifier.of(table.identity().namespace(), table.identity().name());
        if (catalog instanceof SupportsNamespaces namespaces
            && !namespaces.namespaceExists(Namespace.of(table.identity().namespace()))) {
          namespaces.createNamespace(Namespace.of(table.identity().namespace()));
        }
        ProgressLine progress =
            options.quiet() ? null : ProgressLine.onStandardError("generating " + id, "rows");
        GenerateReport report =
            MetricsTableGenerator.generate(
                catalog,
                id,
                GeneratorOptions.builder()
                    .rows(options.rows())
                    .existingTable(ExistingTablePolicy.REUSE)
                    .build(),
                (written, total) -> {
                  if (progress != null) {
                    progress.update(written, total);
                  }
                });
        out.println("  " + report.summary());
      } finally {
        if (catalog instanceof Closeable closeable) {
          closeable.close();
        }
      }
    }
  }

  /**
   * Onboards {@code table} on a cluster started over a config's lake (which {@link #up} leaves
   * without tables) and waits until it is indexed and the broker answers a count over it at the
   * snapshot the controller serves.
   *
   * @throws IOException naming the controller's or broker's log when it is not served in time
   */
  public static void onboard(
      List<ClusterProcess> processes, TableConfig table, boolean quiet, PrintStream out)
      throws IOException {
    onboard(role(processes, "controller"), role(processes, "broker"), table, quiet, out);
  }

  /**
   * Waits until the routing of {@code table} sends every data file of its snapshot to at least
   * {@code replicas} servers that report it served (pinned, deletes read): the state a query stream
   * on a settled cluster sees.
   *
   * @throws IOException saying how many files have fewer replicas when {@code timeout} passes
   */
  public static void awaitRouted(
      List<ClusterProcess> processes, String table, int replicas, Duration timeout)
      throws IOException {
    ClusterProcess zookeeper = role(processes, "zookeeper");
    ZNodes nodes = new ZNodes(CLUSTER_NAME);
    long deadline = System.nanoTime() + timeout.toNanos();
    String seen = "no routing yet";
    try (CuratorFramework client = zookeeperClient(zookeeper)) {
      TableAssignmentStore records = new TableAssignmentStore(client);
      while (true) {
        Optional<TableAssignment> routing = records.read(nodes.routing(table));
        if (routing.isPresent()) {
          long short1 =
              routing.get().files().values().stream()
                  .filter(file -> file.servers().size() < replicas)
                  .count();
          if (short1 == 0 && !routing.get().files().isEmpty()) {
            return;
          }
          seen =
              short1
                  + " of "
                  + routing.get().files().size()
                  + " files routed to fewer than "
                  + replicas
                  + " servers at snapshot "
                  + routing.get().snapshotId();
        }
        if (System.nanoTime() > deadline) {
          throw new IOException(
              "Cannot wait for "
                  + table
                  + " to be routed to "
                  + replicas
                  + " replicas: "
                  + seen
                  + " after "
                  + timeout.toSeconds()
                  + " s (see the servers' logs in "
                  + zookeeper.logFile().getParent()
                  + ")");
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("Interrupted while waiting for " + table);
        }
      }
    }
  }

  private static ClusterProcess role(List<ClusterProcess> processes, String role)
      throws IOException {
    return processes.stream()
        .filter(p -> p.role().equals(role))
        .findFirst()
        .orElseThrow(() -> new IOException("Cannot find the cluster's " + role + " process"));
  }

  /**
   * Onboards {@code table} through the controller and waits until it is indexed and the broker
   * answers a count over it at the snapshot the controller serves.
   */
  private static void onboard(
      ClusterProcess controller,
      ClusterProcess broker,
      TableConfig table,
      boolean quiet,
      PrintStream out)
      throws IOException {
    BrokerClient admin = new BrokerClient(url(controller));
    String name;
    try {
      name = admin.onboard(ConfigWriter.write(table, ConfigFormat.YAML)).path("name").asText();
    } catch (BrokerClientException e) {
      throw new IOException(
          "Cannot onboard "
              + table.identity().qualifiedName()
              + " through the controller: "
              + e.getMessage()
              + " (see "
              + controller.logFile()
              + ")",
          e);
    }
    BrokerClient queries = new BrokerClient(url(broker));
    ProgressLine progress = quiet ? null : ProgressLine.onStandardError("indexing " + name, "rows");
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      JsonNode status = admin.table(name).orElseThrow();
      if (progress != null) {
        progress.update(status.path("recordsIndexed").asLong(), status.path("records").asLong());
      }
      if (status.path("segmentsPending").asLong(-1) == 0) {
        JsonNode answer =
            queries.query("SELECT COUNT(*) FROM " + name, Optional.of(Duration.ofSeconds(30)));
        if (answer.path("exceptions").isEmpty()
            && answer.path("snapshotId").asLong() == status.path("snapshotId").asLong()) {
          if (progress != null) {
            progress.finish("done");
          }
          out.printf(
              Locale.ROOT,
              "  serving %s at snapshot %d: %,d rows, %,d segments%n",
              name,
              status.path("snapshotId").asLong(),
              answer.path("resultTable").path("rows").path(0).path(0).asLong(),
              status.path("segmentsReady").asLong());
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "Cannot serve "
                + name
                + ": not answered by the broker "
                + READY_TIMEOUT.toMinutes()
                + " min after onboarding (see "
                + broker.logFile()
                + " and "
                + controller.logFile()
                + ")");
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while waiting for " + name);
      }
    }
  }

  /** The base URL of a process's HTTP port. */
  static String url(ClusterProcess process) {
    return "http://127.0.0.1:"
        + process
            .httpPort()
            .orElseThrow(() -> new IllegalArgumentException(process.name() + " has no HTTP port"));
  }

  /** A port free now; the process it is given to binds it moments later. */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
