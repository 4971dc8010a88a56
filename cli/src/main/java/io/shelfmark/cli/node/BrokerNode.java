package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.auth.Authenticator;
import io.shelfmark.broker.cluster.ClusterReplicas;
import io.shelfmark.broker.cluster.RoutedTables;
import io.shelfmark.broker.cluster.RoutingFollower;
import io.shelfmark.broker.cluster.SegmentStatisticsReader;
import io.shelfmark.broker.dispatch.FlightDispatcher;
import io.shelfmark.broker.flightsql.BrokerFlightServer;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.http.BrokerHttpServer;
import io.shelfmark.broker.http.BrokerRoutes;
import io.shelfmark.broker.http.HttpSecurity;
import io.shelfmark.broker.query.EngineQueryService;
import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SnapshotRoutes;
import io.shelfmark.catalog.snapshot.SnapshotLoader;
import io.shelfmark.cli.ShelfmarkVersion;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.server.node.NodeResources;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker process of the distributed mode: the HTTP SQL endpoint ({@code broker.http-port}) and
 * the Arrow Flight SQL endpoint ({@code broker.flight-port}, JDBC and ADBC) over the same query
 * service as the all-in-one node, its routing table following the controller's routings in
 * ZooKeeper ({@link RoutingFollower}), and plan fragments scattered to the servers over Arrow
 * Flight ({@link FlightDispatcher}, with failover between replicas). Stateless apart from caches:
 * any number may run.
 */
public final class BrokerNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BrokerNode.class);

  public static final String ROLE = "broker";
  public static final String HTTP_PORT = "broker-http";
  public static final String FLIGHT_PORT = "broker-flight";

  /** How long the nodes page waits for a server's report of its segments and cache. */
  static final java.time.Duration NODE_REPORT_TIMEOUT = java.time.Duration.ofSeconds(2);

  private final List<AutoCloseable> resources;
  private final RoutingTable routing;
  private final int port;
  private final int flightPort;
  private final String url;

  private BrokerNode(
      List<AutoCloseable> resources, RoutingTable routing, int port, int flightPort, String url) {
    this.resources = resources;
    this.routing = routing;
    this.port = port;
    this.flightPort = flightPort;
    this.url = url;
  }

  /** The Arrow Flight SQL port (JDBC, ADBC). */
  public int flightPort() {
    return flightPort;
  }

  /**
   * @param catalogs the catalogs routed tables are read from (each routing names a snapshot)
   * @param dataStore reads segments' statistics from the segment store
   */
  public static BrokerNode start(
      ClusterConfig config, Map<String, Catalog> catalogs, ObjectStore dataStore)
      throws IOException {
    requireNonNull(config, "config is null");
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Files.createDirectories(config.dataDir());
      ClusterZooKeeper zookeeper = ClusterZooKeeper.start(config.zookeeper(), config.dataDir());
      resources.add(zookeeper);
      ZNodes nodes = new ZNodes(config.clusterName());
      RoutingTable routing = new RoutingTable();
      ClusterReplicas replicas = new ClusterReplicas(zookeeper.client(), nodes).start();
      resources.add(replicas);
      resources.add(
          new RoutingFollower(
                  zookeeper.client(),
                  nodes,
                  new SnapshotLoader(catalogs),
                  new SegmentStatisticsReader(dataStore, IndexService.installed()),
                  routing,
                  replicas)
              .start());
      ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(calls::shutdownNow);
      FlightDispatcher dispatcher = new FlightDispatcher(replicas, calls, Clock.systemUTC());
      resources.add(dispatcher);
      NodeMetrics metrics = new NodeMetrics(dataStore.stats(), Clock.systemUTC());
      resources.add(metrics);
      ExecutorService heavyQueries =
          Executors.newThreadPerTaskExecutor(
              Thread.ofPlatform().name("query-heavy-merge-", 0).daemon(true).factory());
      resources.add(heavyQueries::shutdownNow);
      EngineQueryService queries =
          NodeQueries.engine(
              config,
              routing,
              dispatcher,
              metrics.registry(),
              heavyQueries,
              // Its servers hold the files of the routed snapshot alone; an older snapshot's files
              // may be on none of them (docs/cluster.md, "Time travel").
              SnapshotRoutes.servedOnly(
                  "a broker of a cluster answers the routed snapshot only, whose files its servers"
                      + " hold (query past snapshots on an all-in-one node over the same catalog)"));
      HealthMonitor health =
          AllInOne.healthMonitor(
                  SegmentStore.configured(dataStore, config.segmentStore()), catalogs)
              .start();
      resources.add(health);
      NodeAccess access = NodeAccess.of(config.security());
      // Registered once the ports are bound; until then the console shows the host alone.
      long startedAt = System.currentTimeMillis();
      AtomicReference<Member> self =
          new AtomicReference<>(
              new Member(
                  ROLE + "@" + config.host(), List.of(ROLE), config.host(), Map.of(), startedAt));
      BrokerHttpServer http =
          new BrokerHttpServer(
              new BrokerRoutes(
                  queries,
                  new RoutedTables(routing),
                  Optional.empty(),
                  List.of(ROLE),
                  () -> true,
                  BrokerRoutes.DEFAULT_TIMEOUT,
                  health,
                  metrics.endpoint(),
                  NodeStatuses.cluster(
                      zookeeper.client(),
                      nodes,
                      NodeStatuses.local(self::get, health, () -> -1, null),
                      endpoint -> dispatcher.nodeReport(endpoint, NODE_REPORT_TIMEOUT))),
              config.http(),
              HttpSecurity.from(access.security()));
      ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
      resources.add(requests::shutdownNow);
      int port = http.start(config.host(), config.ports().brokerHttpPort(), requests);
      resources.add(http);
      String url = access.scheme() + "://" + config.host() + ":" + port;
      // Beside HTTP, the same queries, users and TLS for JDBC and ADBC clients.
      BrokerFlightServer flight =
          BrokerFlightServer.start(
              config.host(),
              config.ports().brokerFlightPort(),
              queries,
              routing,
              new Authenticator(access.security()),
              access.security().tls(),
              ShelfmarkVersion.version());
      resources.add(flight);
      self.set(
          new Member(
              ROLE + "@" + config.host() + ":" + port,
              List.of(ROLE),
              config.host(),
              Map.of(HTTP_PORT, port, FLIGHT_PORT, flight.port()),
              startedAt));
      resources.add(Members.register(zookeeper.client(), nodes, self.get()));
      log.info("Broker serving SQL on {}", url);
      return new BrokerNode(resources, routing, port, flight.port(), url);
    } catch (IOException | RuntimeException e) {
      NodeResources.closeAll(resources);
      throw e;
    }
  }

  public RoutingTable routing() {
    return routing;
  }

  public int port() {
    return port;
  }

  public String url() {
    return url;
  }

  @Override
  public void close() {
    NodeResources.closeAll(resources);
  }
}
