package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.http.HttpSecurity;
import io.shelfmark.broker.http.MetricsEndpoint;
import io.shelfmark.broker.query.QueryErrorCode;
import io.shelfmark.broker.query.QueryResponse;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.cluster.leader.ControllerLeadership;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.controller.cluster.AssignmentPublisher;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.controller.state.ZooKeeperTableStateStore;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.node.NodeResources;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A controller process of the distributed mode: onboarding, snapshot following and segment builds
 * (as in the all-in-one node), with its state in ZooKeeper, plus the placement of every table's
 * files on servers and the publication of routings ({@link AssignmentPublisher}). Any number may
 * run: one leads (a Curator leader latch), the others stand by serving nothing and take over when
 * the leader's session ends, restoring the tables from ZooKeeper without rebuilding what is
 * recorded. Its HTTP port ({@code controller.http-port}) serves the admin API: {@code POST
 * /tables}, {@code GET /tables}, {@code /tables/{name}}, {@code /health}.
 */
public final class ControllerNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ControllerNode.class);

  public static final String ROLE = "controller";
  public static final String HTTP_PORT = "controller-http";

  private final List<AutoCloseable> resources;
  private final TableRegistry registry;
  private final ControllerLeadership leadership;
  private final int port;

  private ControllerNode(
      List<AutoCloseable> resources,
      TableRegistry registry,
      ControllerLeadership leadership,
      int port) {
    this.resources = resources;
    this.registry = registry;
    this.leadership = leadership;
    this.port = port;
  }

  /**
   * @param catalogs the catalogs table configs name
   * @param dataStore reads data files and writes the segment store
   */
  public static ControllerNode start(
      ClusterConfig config, Map<String, Catalog> catalogs, ObjectStore dataStore)
      throws IOException {
    requireNonNull(config, "config is null");
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Path dataDir = config.dataDir().toAbsolutePath();
      Files.createDirectories(dataDir);
      int cores = Runtime.getRuntime().availableProcessors();
      ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(io::shutdownNow);
      ExecutorService builds = Executors.newFixedThreadPool(cores, named("segment-build"));
      resources.add(builds::shutdownNow);
      ScheduledExecutorService background =
          Executors.newSingleThreadScheduledExecutor(named("controller-background"));
      resources.add(background::shutdownNow);

      ClusterZooKeeper zookeeper = ClusterZooKeeper.start(config.zookeeper(), dataDir);
      resources.add(zookeeper);
      ZNodes nodes = new ZNodes(config.clusterName());
      String id = ROLE + "@" + config.host() + "/" + ProcessHandle.current().pid();
      ControllerLeadership leadership = ControllerLeadership.start(zookeeper.client(), nodes, id);
      resources.add(leadership);

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
      AssignmentPublisher publisher =
          new AssignmentPublisher(zookeeper.client(), nodes, leadership::isLeader).start();
      resources.add(publisher);
      registry.addListener(publisher);
      registry.addDropListener(
          name -> {
            try {
              publisher.drop(name);
            } catch (IOException e) {
              log.warn("Cannot remove the routing of dropped table {}: {}", name, e.getMessage());
            }
          });
      // A standby builds nothing but keeps the recorded tables at hand (its /tables shows them);
      // on taking the lead it restores them again (fresh catalog reads) and schedules only what
      // has no record. Once per process: the CAS keeps a leadership seen twice from restoring
      // twice.
      AtomicBoolean restoredAsLeader = new AtomicBoolean();
      Runnable takeLead =
          () ->
              background.execute(
                  () -> {
                    if (leadership.isLeader() && restoredAsLeader.compareAndSet(false, true)) {
                      try {
                        registry.restore();
                        publisher.reconcileNow();
                      } catch (IOException | RuntimeException e) {
                        log.error(
                            "Cannot restore the tables on taking the lead: {}", e.getMessage());
                      }
                    }
                  });
      leadership.onLeadership(takeLead);
      if (!leadership.isLeader()) {
        registry.restore();
      }
      takeLead.run();
      Map<String, Instant> lastChecked = new ConcurrentHashMap<>();
      background.scheduleWithFixedDelay(
          () -> {
            if (leadership.isLeader()) {
              AllInOne.refreshAll(registry, lastChecked);
            }
          },
          1,
          1,
          TimeUnit.SECONDS);
      resources.add(
          () -> {
            background.shutdownNow();
            builds.shutdownNow();
            if (!builds.awaitTermination(10, TimeUnit.SECONDS)) {
              log.warn("Segment builds did not stop within 10 s; closing anyway");
            }
          });

      RegistryTables tables =
          new RegistryTables(
              registry, () -> NodeWarmup.State.OFF, table -> LocalServer.SegmentHealth.NONE);
      HealthMonitor health = AllInOne.healthMonitor(segmentStore, catalogs).start();
      resources.add(health);
      NodeAccess access = NodeAccess.of(config.security());
      // Registered once the port is bound; until then the console shows the host alone.
      long startedAt = System.currentTimeMillis();
      AtomicReference<Member> self =
          new AtomicReference<>(new Member(id, List.of(ROLE), config.host(), Map.of(), startedAt));
      BrokerHttpServer http =
          new BrokerHttpServer(
              new BrokerRoutes(
                  request ->
                      QueryResponse.failed(
                          QueryErrorCode.UNSUPPORTED,
                          "Cannot execute query: this is a controller's admin port (send queries"
                              + " to a broker's broker.http-port)"),
                  tables,
                  Optional.of(
                      tableConfig -> {
                        // Only the leader's registry follows tables: a standby would record a
                        // table nobody serves until the next failover.
                        if (!leadership.isLeader()) {
                          throw new TableAdminException(
                              "Cannot onboard on controller "
                                  + id
                                  + ": it is a standby (onboard through the leading controller;"
                                  + " shelfmark cluster status shows which one leads)",
                              List.of());
                        }
                        return tables.onboard(tableConfig);
                      }),
                  List.of(ROLE),
                  () -> true,
                  BrokerRoutes.DEFAULT_TIMEOUT,
                  health,
                  MetricsEndpoint.NONE,
                  NodeStatuses.cluster(
                      zookeeper.client(),
                      nodes,
                      NodeStatuses.local(self::get, health, () -> -1, null))),
              config.http(),
              HttpSecurity.from(access.security()));
      ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(requests::shutdownNow);
      int port = http.start(config.host(), config.ports().controllerHttpPort(), requests);
      resources.add(http);
      self.set(new Member(id, List.of(ROLE), config.host(), Map.of(HTTP_PORT, port), startedAt));
      resources.add(Members.register(zookeeper.client(), nodes, self.get()));
      log.info(
          "Controller {} serves its admin API on {}:{} ({})",
          id,
          config.host(),
          port,
          leadership.isLeader() ? "leader" : "standby");
      return new ControllerNode(resources, registry, leadership, port);
    } catch (IOException | RuntimeException e) {
      NodeResources.closeAll(resources);
      throw e;
    }
  }

  public TableRegistry registry() {
    return registry;
  }

  public boolean isLeader() {
    return leadership.isLeader();
  }

  /** The admin API's port. */
  public int port() {
    return port;
  }

  @Override
  public void close() {
    NodeResources.closeAll(resources);
  }

  private static java.util.concurrent.ThreadFactory named(String name) {
    return Thread.ofPlatform().name(name + "-", 0).daemon(true).factory();
  }
}
