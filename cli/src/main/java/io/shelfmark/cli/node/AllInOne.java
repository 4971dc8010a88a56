package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.flightsql.BrokerFlightServer;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.http.HttpSecurity;
import io.shelfmark.broker.node.NodeDirectory;
import io.shelfmark.broker.query.EngineQueryService;
import io.shelfmark.broker.query.QueryDispatcher;
import io.shelfmark.broker.query.QueryDispatcher.QueryText;
import io.shelfmark.broker.query.QueryLane;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.ShelfmarkVersion;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.cluster.leader.ControllerLeadership;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.controller.state.ZooKeeperTableStateStore;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.exchange.fragment.QueryLimits;
import io.shelfmark.exchange.profile.ProfileMode;
import io.shelfmark.exchange.profile.ServerProfile;
import io.shelfmark.exchange.result.RowSink;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.node.NodeResources;
import io.shelfmark.server.node.ServerCore;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every role in one JVM: the controller (onboarding, segment builds, snapshot refresh), the server
 * (segments pinned or remote, deletes, execution) and the broker (HTTP, planning, pruning,
 * merging), wired through the same interfaces the distributed mode puts on the network. Used by
 * {@code shelfmark all-in-one} and the quickstart.
 */
public final class AllInOne implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AllInOne.class);

  /** The roles this process plays; reported by {@code /health}. */
  public static final List<String> ROLES =
      List.of("controller", "index-builder", "server", "broker");

  /** Tells apart the leader-election ids of several nodes of one JVM (tests). */
  private static final AtomicInteger NODES_STARTED = new AtomicInteger();

  private final List<AutoCloseable> resources;
  private final TableRegistry registry;
  private final RegistryTables tables;
  private final NodeWarmup warmup;
  private final LongSupplier cachedBytes;
  private final int port;
  private final String url;
  private final LocalServer server;
  private final RoutingTable routing;
  private final int flightPort;
  private final boolean flightTls;

  private AllInOne(
      List<AutoCloseable> resources,
      TableRegistry registry,
      RegistryTables tables,
      NodeWarmup warmup,
      LongSupplier cachedBytes,
      String url,
      int port,
      LocalServer server,
      RoutingTable routing,
      int flightPort,
      boolean flightTls) {
    this.server = server;
    this.routing = routing;
    this.flightPort = flightPort;
    this.flightTls = flightTls;
    this.resources = resources;
    this.registry = registry;
    this.tables = tables;
    this.warmup = warmup;
    this.cachedBytes = cachedBytes;
    this.url = url;
    this.port = port;
  }

  /**
   * Starts every role.
   *
   * @param config the process's cluster config: storage, segment store, cache, data dir, ports
   * @param catalogs the Iceberg catalogs table configs may name, by name
   * @param dataStore reads the tables' data files (and the segment store when it is in S3)
   * @param port the broker's HTTP port; 0 picks a free one, for the Flight SQL endpoint too (tests,
   *     benchmarks); otherwise Flight SQL binds {@code broker.flight-port}
   */
  public static AllInOne start(
      ClusterConfig config, Map<String, Catalog> catalogs, ObjectStore dataStore, int port)
      throws IOException {
    requireNonNull(config, "config is null");
    return start(
        config, catalogs, dataStore, port, port == 0 ? 0 : config.ports().brokerFlightPort());
  }

  /**
   * Starts every role.
   *
   * @param port the broker's HTTP port; 0 picks a free one
   * @param flightPort the broker's Arrow Flight SQL port; 0 picks a free one
   */
  public static AllInOne start(
      ClusterConfig config,
      Map<String, Catalog> catalogs,
      ObjectStore dataStore,
      int port,
      int flightPort)
      throws IOException {
    requireNonNull(config, "config is null");
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Path dataDir = config.dataDir().toAbsolutePath();
      Files.createDirectories(dataDir);
      int cores = Runtime.getRuntime().availableProcessors();
      ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(io::shutdownNow);
      // One build per core here, not SnapshotIndexer's one more: the node also answers queries,
      // and the benchmark's 2 GiB heap is measured with this many files' build state at once.
      ExecutorService builds = Executors.newFixedThreadPool(cores, named("segment-build"));
      resources.add(builds::shutdownNow);
      ScheduledExecutorService refresher =
          Executors.newSingleThreadScheduledExecutor(named("snapshot-refresh"));
      resources.add(refresher::shutdownNow);

      // Cluster state first, closed last: the embedded server (zookeeper.connect: embedded) keeps
      // its data in <data-dir>/zookeeper, so a restarted node finds the tables it served.
      ClusterZooKeeper zookeeper = ClusterZooKeeper.start(config.zookeeper(), dataDir);
      resources.add(zookeeper);
      ZNodes nodes = new ZNodes(config.clusterName());
      // The only controller here, so it leads at once; with an ensemble shared by several
      // controllers only the leader builds and follows snapshots.
      ControllerLeadership leadership =
          ControllerLeadership.start(
              zookeeper.client(),
              nodes,
              "all-in-one@"
                  + config.host()
                  + "/"
                  + ProcessHandle.current().pid()
                  + "-"
                  + NODES_STARTED.incrementAndGet());
      resources.add(leadership);
      awaitLeadership(leadership, config);

      IndexService indexes = IndexService.installed();
      SegmentStore segmentStore = SegmentStore.configured(dataStore, config.segmentStore());
      Path buildDir = Files.createDirectories(dataDir.resolve("build"));
      SegmentFileBuilder builder =
          new SegmentFileBuilder(
              dataStore, io, indexes, BuildOptions.builder().workDirectory(buildDir).build());
      TableRegistry registry =
          new TableRegistry(
              catalogs,
              new SegmentScheduler(builder, segmentStore, builds),
              new ZooKeeperTableStateStore(zookeeper.client(), nodes),
              leadership::isLeader,
              Clock.systemUTC());

      ServerCore core = ServerCore.start(config, dataStore, segmentStore, indexes);
      resources.add(core);
      TieredCache cache = core.cache();
      NodeMetrics metrics = new NodeMetrics(cache, dataStore.stats(), Clock.systemUTC());
      resources.add(metrics);
      LocalServer server = core.server();

      RoutingTable routing = new RoutingTable();
      registry.addListener(new TableRoutes(server, routing));
      registry.addDropListener(
          name -> {
            routing.remove(TableName.parse(name));
            server.drop(name);
          });
      // An admitted heavy query's own thread (waiting for its files, merging their groups,
      // finishing): platform, so that merging and sorting many groups cannot hold a carrier.
      // Admission bounds how many there are.
      ExecutorService heavyQueries =
          Executors.newThreadPerTaskExecutor(
              Thread.ofPlatform().name("query-heavy-merge-", 0).daemon(true).factory());
      resources.add(heavyQueries::shutdownNow);
      QueryDispatcher dispatcher = new LocalDispatcher(server, core.cheapWork(), core.heavyWork());
      EngineQueryService queries =
          NodeQueries.engine(
              config,
              routing,
              dispatcher,
              metrics.registry(),
              heavyQueries,
              new PastSnapshotRoutes(registry, catalogs, server));
      // The warm-up queries the broker over HTTP, so it learns the port once the broker serves.
      AtomicReference<NodeWarmup> warmup = new AtomicReference<>();
      RegistryTables tables =
          new RegistryTables(
              registry,
              () -> warmup.get() == null ? NodeWarmup.State.PENDING : warmup.get().state(),
              server::segmentHealth);
      metrics.bindTables(registry, tables::status);
      HealthMonitor health = healthMonitor(segmentStore, catalogs).start();
      resources.add(health);
      NodeAccess access = NodeAccess.of(config.security());
      // Registered once the ports are bound; until then the console shows the host alone.
      long startedAt = Clock.systemUTC().millis();
      AtomicReference<Member> self =
          new AtomicReference<>(
              new Member("all-in-one@" + config.host(), ROLES, config.host(), Map.of(), startedAt));
      NodeDirectory nodeDirectory =
          NodeStatuses.cluster(
              zookeeper.client(),
              nodes,
              NodeStatuses.local(
                  self::get,
                  health,
                  () -> tables.tables().stream().mapToLong(TableStatus::segmentsReady).sum(),
                  cache));
      BrokerHttpServer broker =
          new BrokerHttpServer(
              new BrokerRoutes(
                  queries,
                  tables,
                  Optional.of(tables),
                  ROLES,
                  () -> true,
                  BrokerRoutes.DEFAULT_TIMEOUT,
                  health,
                  metrics.endpoint(),
                  nodeDirectory),
              config.http(),
              HttpSecurity.from(access.security()));
      ExecutorService queryThreads = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(queryThreads::shutdownNow);
      int boundPort = broker.start(config.host(), port, queryThreads);
      resources.add(broker);
      // Beside HTTP, the same queries, users and TLS for JDBC and ADBC clients.
      BrokerFlightServer flight =
          BrokerFlightServer.start(
              config.host(),
              flightPort,
              queries,
              routing,
              new Authenticator(access.security()),
              access.security().tls(),
              ShelfmarkVersion.version());
      resources.add(flight);
      String url = access.scheme() + "://" + config.host() + ":" + boundPort;
      warmup.set(
          new NodeWarmup(
              config.warmup(), access.client(url), core::invalidateCaches, queries::prepare));
      registry.addListener(warmup.get());
      resources.add(warmup.get()); // closed before the broker it queries
      self.set(
          new Member(
              "all-in-one@" + config.host() + ":" + boundPort,
              ROLES,
              config.host(),
              Map.of("broker-http", boundPort),
              startedAt));
      resources.add(Members.register(zookeeper.client(), nodes, self.get()));
      // Every table recorded in ZooKeeper is served again before the node reports itself started:
      // recorded segments are taken as they are, only files without a record are built.
      registry.restore();
      Map<String, Instant> lastChecked = new ConcurrentHashMap<>();
      refresher.scheduleWithFixedDelay(
          () -> {
            if (leadership.isLeader()) { // only the leader follows snapshots
              refreshAll(registry, lastChecked);
            }
          },
          1,
          1,
          TimeUnit.SECONDS);
      // Closed first: background builds and refreshes stop before what they publish to closes.
      resources.add(
          () -> {
            refresher.shutdownNow();
            builds.shutdownNow();
            if (!builds.awaitTermination(10, TimeUnit.SECONDS)) {
              log.warn("Segment builds did not stop within 10 s; closing anyway");
            }
          });
      LongSupplier cachedBytes = core::cachedBytes;
      return new AllInOne(
          resources,
          registry,
          tables,
          warmup.get(),
          cachedBytes,
          url,
          boundPort,
          server,
          routing,
          flight.port(),
          access.security().tls().isPresent());
    } catch (IOException | RuntimeException e) {
      NodeResources.closeAll(resources);
      throw e;
    }
  }

  /**
   * Waits to lead, up to the connection timeout; a node that does not lead by then serves what is
   * recorded and leaves builds and refreshes to the leader (another controller on the ensemble).
   */
  private static void awaitLeadership(ControllerLeadership leadership, ClusterConfig config)
      throws IOException {
    try {
      if (!leadership.awaitLeadership(config.zookeeper().connectionTimeout())) {
        log.warn(
            "Controller {} does not lead (another controller on the same ZooKeeper does): it"
                + " serves the recorded tables and builds nothing",
            leadership.id());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while waiting for the controller leadership", e);
    }
  }

  /**
   * Probes of what every query and build depends on: object storage (a lookup of one key below the
   * segment store's prefix; "not found" is an answer) and each catalog (a namespace listing).
   */
  static HealthMonitor healthMonitor(SegmentStore segmentStore, Map<String, Catalog> catalogs) {
    List<HealthMonitor.Probe> probes = new ArrayList<>();
    Location probeKey = segmentStore.prefix().resolve(".health-probe");
    probes.add(HealthMonitor.Probe.of("storage", () -> segmentStore.exists(probeKey)));
    for (Map.Entry<String, Catalog> catalog : new TreeMap<>(catalogs).entrySet()) {
      probes.add(
          HealthMonitor.Probe.of(
              "catalog." + catalog.getKey(),
              () -> {
                if (catalog.getValue() instanceof SupportsNamespaces namespaces) {
                  namespaces.listNamespaces();
                } else {
                  catalog.getValue().listTables(Namespace.empty());
                }
              }));
    }
    return new HealthMonitor(
        probes, HealthMonitor.DEFAULT_INTERVAL, HealthMonitor.DEFAULT_TIMEOUT, Clock.systemUTC());
  }

  /** Checks each table for a new snapshot once its refresh interval has passed since the last. */
  static void refreshAll(TableRegistry registry, Map<String, Instant> lastChecked) {
    Instant now = Clock.systemUTC().instant();
    for (ServedTable table : registry.tables()) {
      Instant last = lastChecked.getOrDefault(table.sqlName(), table.syncedAt());
      if (last.plus(table.config().refreshInterval()).isAfter(now)) {
        continue;
      }
      lastChecked.put(table.sqlName(), now);
      try {
        registry.refresh(table.sqlName());
      } catch (OnboardingException | RuntimeException e) {
        log.warn("Cannot refresh table {}: {}", table.sqlName(), e.getMessage());
      }
    }
  }

  /** Dispatches to the server in this process, each lane's file work on its own executor. */
  private record LocalDispatcher(LocalServer server, Executor cheapWork, Executor heavyWork)
      implements QueryDispatcher {
    @Override
    public Dispatched execute(
        QueryPlan plan,
        TableRoute route,
        List<DataFileInfo> files,
        Instant deadline,
        BooleanSupplier cancelled) {
      return execute(
          plan, route, files, deadline, cancelled, QueryLane.CHEAP, QueryLimits.defaults());
    }

    @Override
    public Dispatched execute(
        QueryPlan plan,
        TableRoute route,
        List<DataFileInfo> files,
        Instant deadline,
        BooleanSupplier cancelled,
        QueryLane lane,
        QueryLimits limits) {
      return execute(
          new QueryText("", Optional.empty(), Map.of(), false),
          plan,
          route,
          files,
          deadline,
          cancelled,
          lane,
          limits,
          ProfileMode.OFF);
    }

    @Override
    public Dispatched execute(
        QueryText text,
        QueryPlan plan,
        TableRoute route,
        List<DataFileInfo> files,
        Instant deadline,
        BooleanSupplier cancelled,
        QueryLane lane,
        QueryLimits limits) {
      return execute(text, plan, route, files, deadline, cancelled, lane, limits, ProfileMode.OFF);
    }

    @Override
    public Dispatched execute(
        QueryText text,
        QueryPlan plan,
        TableRoute route,
        List<DataFileInfo> files,
        Instant deadline,
        BooleanSupplier cancelled,
        QueryLane lane,
        QueryLimits limits,
        ProfileMode mode) {
      long started = System.nanoTime();
      LocalServer.Execution execution =
          server.execute(
              route.table().name().toString(),
              route.snapshotId(),
              plan,
              files,
              deadline,
              cancelled,
              lane == QueryLane.HEAVY ? heavyWork : cheapWork,
              limits,
              text.options(),
              mode);
      List<ServerProfile> servers =
          mode == ProfileMode.OFF
              ? List.of()
              : List.of(
                  new ServerProfile(
                      "local",
                      System.nanoTime() - started,
                      execution.profiles(),
                      execution.memoryHits(),
                      execution.diskHits()));
      return dispatched(execution, servers);
    }

    @Override
    public boolean streams() {
      return true;
    }

    @Override
    public Dispatched stream(
        QueryText text,
        QueryPlan plan,
        TableRoute route,
        List<DataFileInfo> files,
        Instant deadline,
        BooleanSupplier cancelled,
        QueryLane lane,
        QueryLimits limits,
        RowSink sink) {
      LocalServer.Execution execution =
          server.stream(
              route.table().name().toString(),
              route.snapshotId(),
              plan,
              files,
              deadline,
              cancelled,
              lane == QueryLane.HEAVY ? heavyWork : cheapWork,
              limits,
              text.options(),
              sink);
      return dispatched(execution, List.of());
    }

    /** What one in-process server execution read and answered, as the broker's dispatch result. */
    private static Dispatched dispatched(
        LocalServer.Execution execution, List<ServerProfile> servers) {
      return new Dispatched(
          execution.partial(),
          execution.storage().getRequests(),
          execution.storage().bytesRead(),
          execution.cacheHits(),
          execution.cacheMisses(),
          List.of(),
          "",
          servers,
          execution.storage().retries());
    }
  }

  private static java.util.concurrent.ThreadFactory named(String name) {
    return Thread.ofPlatform().name(name + "-", 0).daemon(true).factory();
  }

  public TableRegistry registry() {
    return registry;
  }

  /**
   * The server role of this node: what a Flight endpoint serves when the node's files are queried
   * over the network (the distributed data plane's tests put it behind one).
   */
  public LocalServer server() {
    return server;
  }

  /** The broker's routing table of this node: one route per served table. */
  public RoutingTable routing() {
    return routing;
  }

  public RegistryTables tables() {
    return tables;
  }

  /** Where the node's warm-up is; tables report it too ({@code warmup}). */
  public NodeWarmup.State warmupState() {
    return warmup.state();
  }

  /**
   * The bytes the node's caches hold now: pages (memory and disk), decompressed pages and decoded
   * posting lists.
   */
  public long cachedBytes() {
    return cachedBytes.getAsLong();
  }

  /** What the node's warm-up did, once it ran. */
  public Optional<NodeWarmup.Summary> warmupSummary() {
    return warmup.summary();
  }

  /** The broker's HTTP port. */
  public int port() {
    return port;
  }

  /** The broker's Arrow Flight SQL port. */
  public int flightPort() {
    return flightPort;
  }

  /**
   * The URL Arrow's Flight SQL JDBC driver connects with ({@code useEncryption=true} when TLS is
   * configured; add {@code user} and {@code password} when users are).
   */
  public String jdbcUrl() {
    return "jdbc:arrow-flight-sql://"
        + (url.substring(url.indexOf("://") + 3, url.lastIndexOf(':')))
        + ":"
        + flightPort
        + "/?useEncryption="
        + flightTls;
  }

  /** The broker's base URL: {@code https://} when TLS is configured. */
  public String url() {
    return url;
  }

  @Override
  public void close() {
    NodeResources.closeAll(resources);
  }
}
