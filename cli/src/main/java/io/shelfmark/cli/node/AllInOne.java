package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import com.github.benmanes.caffeine.cache.Ticker;
import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.flightsql.BrokerFlightServer;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.http.HttpSecurity;
import io.shelfmark.broker.metrics.MicrometerQueryMetrics;
import io.shelfmark.broker.prune.SnapshotPruning;
import io.shelfmark.broker.query.EngineQueryService;
import io.shelfmark.broker.query.QueryAdmission;
import io.shelfmark.broker.query.QueryDispatcher;
import io.shelfmark.broker.query.QueryLane;
import io.shelfmark.broker.query.QueryListener;
import io.shelfmark.broker.query.QueryPolicy;
import io.shelfmark.broker.querylog.QueryLog;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cli.ShelfmarkVersion;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.QueryConfig;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.decode.MemoryDecompressedPages;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.server.delete.DeletedRowsLoader;
import io.shelfmark.server.exec.QueryLimits;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.ServedSegments;
import io.shelfmark.sql.SqlLimits;
import io.shelfmark.sql.plan.QueryPlan;
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

  /** Memory for deleted-row bitmaps read from delete files, shared by every table. */
  private static final long DELETES_CACHE_BYTES = 256L << 20;

  private final List<AutoCloseable> resources;
  private final TableRegistry registry;
  private final RegistryTables tables;
  private final NodeWarmup warmup;
  private final LongSupplier cachedBytes;
  private final int port;
  private final String url;
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
      int flightPort,
      boolean flightTls) {
    this.resources = resources;
    this.registry = registry;
    this.tables = tables;
    this.warmup = warmup;
    this.cachedBytes = cachedBytes;
    this.url = url;
    this.port = port;
    this.flightPort = flightPort;
    this.flightTls = flightTls;
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

      IndexService indexes = IndexService.installed();
      SegmentStore segmentStore = new SegmentStore(dataStore, segmentStoreLocation(config));
      Path buildDir = Files.createDirectories(dataDir.resolve("build"));
      SegmentFileBuilder builder =
          new SegmentFileBuilder(
              dataStore, io, indexes, BuildOptions.builder().workDirectory(buildDir).build());
      TableRegistry registry =
          new TableRegistry(
              catalogs, new SegmentScheduler(builder, segmentStore, builds), Clock.systemUTC());

      TieredCache cache = TieredCache.open(config.cache(), io, Ticker.systemTicker());
      resources.add(cache);
      NodeMetrics metrics = new NodeMetrics(cache, dataStore.stats(), Clock.systemUTC());
      resources.add(metrics);
      BitmapCache postingLists = BitmapCache.bounded(config.cache().postingListsMaxSize().bytes());
      ServedSegments segments =
          new ServedSegments(
              segmentStore,
              config.segmentMode(),
              dataDir.resolve("segments"),
              cache,
              indexes,
              postingLists);
      resources.add(segments);
      boolean pageCache = config.cache().diskMaxSize().bytes() > 0;
      // Virtual threads: a file's work waits for its pages (a round trip to S3) between bursts of
      // decoding, and a waiting virtual thread leaves its carrier to another file, so waits do not
      // cap the queries in flight; the carriers (one per core) still bound the CPU used at once.
      ExecutorService fileWork =
          Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("query-file-", 0).factory());
      resources.add(fileWork::shutdownNow);
      DeletedRowsLoader deletes = new DeletedRowsLoader(dataStore, io, DELETES_CACHE_BYTES);
      DecompressedPages keptPages = keptPages(config.cache(), pageCache);
      LocalServer server =
          new LocalServer(
              dataStore,
              pageCache ? Optional.of(cache) : Optional.empty(),
              keptPages,
              segments,
              deletes::deletedPositions,
              fileWork,
              io);

      RoutingTable routing = new RoutingTable();
      registry.addListener(new TableRoutes(server, routing));
      // Heavy queries' file work runs on a few platform threads of its own, which the OS
      // time-slices with the virtual threads' carriers: on the carriers (one per core) a few
      // CPU-bound scans held every one, and a 2 ms index-only count waited up to 11 s behind them.
      // Half the cores: heavy queries then use at most that much CPU, whatever their number, and
      // cheap ones keep the rest. A bounded pool is safe here: file work hands row groups to the
      // executor only as help, and does them itself when the help has not started.
      ExecutorService heavyWork =
          Executors.newFixedThreadPool(
              Math.max(1, cores / 2),
              Thread.ofPlatform().name("query-heavy-", 0).daemon(true).factory());
      resources.add(heavyWork::shutdownNow);
      // An admitted heavy query's own thread (waiting for its files, merging their groups,
      // finishing): platform, so that merging and sorting many groups cannot hold a carrier.
      // Admission bounds how many there are.
      ExecutorService heavyQueries =
          Executors.newThreadPerTaskExecutor(
              Thread.ofPlatform().name("query-heavy-merge-", 0).daemon(true).factory());
      resources.add(heavyQueries::shutdownNow);
      QueryConfig limits = config.query();
      QueryLimits serverLimits =
          new QueryLimits(limits.maxGroups(), limits.maxDistinctValues(), limits.maxRows());
      QueryDispatcher dispatcher = new LocalDispatcher(server, fileWork, heavyWork);
      EngineQueryService queries =
          new EngineQueryService(
              routing,
              new SnapshotPruning(),
              dispatcher,
              BrokerRoutes.DEFAULT_TIMEOUT,
              Clock.systemUTC(),
              QueryListener.all(
                  List.of(
                      new MicrometerQueryMetrics(metrics.registry()),
                      new QueryLog(QueryLog.DEFAULT_SLOW_THRESHOLD, false, Clock.systemUTC()))),
              new SqlLimits(
                  config.sqlLimits().maxLength(),
                  config.sqlLimits().maxExpressionDepth(),
                  config.sqlLimits().maxInListSize(),
                  config.sqlLimits().maxLogicalTerms()),
              new QueryPolicy(
                  new QueryAdmission(
                      Map.of(
                          QueryLane.CHEAP,
                          new QueryAdmission.LaneLimits(
                              limits.cheapMaxRunning(), limits.cheapMaxQueued()),
                          QueryLane.HEAVY,
                          new QueryAdmission.LaneLimits(
                              limits.heavyMaxRunning(), limits.heavyMaxQueued())),
                      Clock.systemUTC()),
                  limits.cheapMaxRows(),
                  serverLimits,
                  limits.maxInListItems(),
                  heavyQueries));
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
                  metrics.endpoint()),
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
              config.warmup(),
              access.client(url),
              () -> {
                cache.invalidateAll();
                keptPages.invalidateAll();
                postingLists.invalidateAll();
              },
              queries::prepare));
      registry.addListener(warmup.get());
      resources.add(warmup.get()); // closed before the broker it queries
      Map<String, Instant> lastChecked = new ConcurrentHashMap<>();
      refresher.scheduleWithFixedDelay(
          () -> refreshAll(registry, lastChecked), 1, 1, TimeUnit.SECONDS);
      // Closed first: background builds and refreshes stop before what they publish to closes.
      resources.add(
          () -> {
            refresher.shutdownNow();
            builds.shutdownNow();
            if (!builds.awaitTermination(10, TimeUnit.SECONDS)) {
              log.warn("Segment builds did not stop within 10 s; closing anyway");
            }
          });
      LongSupplier cachedBytes =
          () -> {
            cache.cleanUp();
            return cache.memoryTier().weightedSize()
                + cache.diskTier().weightedSize()
                + postingLists.stats().bytes()
                + (keptPages instanceof MemoryDecompressedPages kept ? kept.keptBytes() : 0);
          };
      return new AllInOne(
          resources,
          registry,
          tables,
          warmup.get(),
          cachedBytes,
          url,
          boundPort,
          flight.port(),
          access.security().tls().isPresent());
    } catch (IOException | RuntimeException e) {
      closeAll(resources);
      throw e;
    }
  }

  /** Decompressed pages are kept only beside a page cache, whose pages they save decompressing. */
  private static DecompressedPages keptPages(CacheConfig cache, boolean pageCache) {
    return pageCache && cache.decompressedMaxSize().bytes() > 0
        ? new MemoryDecompressedPages(cache.decompressedMaxSize())
        : DecompressedPages.NONE;
  }

  /**
   * Probes of what every query and build depends on: object storage (a lookup of one key below the
   * segment store's prefix; "not found" is an answer) and each catalog (a namespace listing).
   */
  private static HealthMonitor healthMonitor(
      SegmentStore segmentStore, Map<String, Catalog> catalogs) {
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

  private static Location segmentStoreLocation(ClusterConfig config) {
    String location = config.segmentStore();
    if (location.startsWith("/")) {
      location = Path.of(location).toAbsolutePath() + "/";
    }
    return Location.parse(location.endsWith("/") ? location : location + "/");
  }

  /** Checks each table for a new snapshot once its refresh interval has passed since the last. */
  private static void refreshAll(TableRegistry registry, Map<String, Instant> lastChecked) {
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
      LocalServer.Execution execution =
          server.execute(
              route.table().name().toString(),
              route.snapshotId(),
              plan,
              files,
              deadline,
              cancelled,
              lane == QueryLane.HEAVY ? heavyWork : cheapWork,
              limits);
      return new Dispatched(
          execution.partial(),
          execution.storage().getRequests(),
          execution.storage().bytesRead(),
          execution.cacheHits(),
          execution.cacheMisses());
    }
  }

  private static java.util.concurrent.ThreadFactory named(String name) {
    return Thread.ofPlatform().name(name + "-", 0).daemon(true).factory();
  }

  public TableRegistry registry() {
    return registry;
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
    closeAll(resources);
  }

  private static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        log.warn("Cannot close {} cleanly: {}", resources.get(i), e.getMessage());
      }
    }
  }
}
