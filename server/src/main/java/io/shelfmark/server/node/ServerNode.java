package io.shelfmark.server.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.SnapshotLoader;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.server.cluster.AssignmentFollower;
import io.shelfmark.server.flight.FlightFragmentServer;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server process of the distributed mode: the server's engine ({@link ServerCore}) behind an
 * Arrow Flight endpoint that brokers send plan fragments to ({@code server.rpc-port}), registered
 * as a live member in ZooKeeper, serving what its assignment names ({@link AssignmentFollower}). It
 * never talks to the controller or a broker except through the cluster state and that endpoint.
 */
public final class ServerNode implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ServerNode.class);

  /** The role servers register with; the controller places files on members that have it. */
  public static final String ROLE = "server";

  /** The port name brokers look up a server's Flight endpoint by. */
  public static final String RPC_PORT = "server-rpc";

  private final List<AutoCloseable> resources;
  private final String memberId;
  private final int rpcPort;

  private ServerNode(List<AutoCloseable> resources, String memberId, int rpcPort) {
    this.resources = resources;
    this.memberId = memberId;
    this.rpcPort = rpcPort;
  }

  /**
   * Starts the server: its engine, its Flight endpoint, its membership, then its assignment.
   *
   * @param catalogs the catalogs tables are read from (each assignment names a snapshot)
   * @param dataStore reads data files and the segment store
   */
  public static ServerNode start(
      ClusterConfig config, Map<String, Catalog> catalogs, ObjectStore dataStore)
      throws IOException {
    requireNonNull(config, "config is null");
    List<AutoCloseable> resources = new ArrayList<>();
    try {
      Files.createDirectories(config.dataDir());
      IndexService indexes = IndexService.installed();
      SegmentStore segmentStore = SegmentStore.configured(dataStore, config.segmentStore());
      ServerCore core = ServerCore.start(config, dataStore, segmentStore, indexes);
      resources.add(core);
      FlightFragmentServer flight =
          FlightFragmentServer.start(
              config.host(),
              config.ports().serverRpcPort(),
              core.server(),
              core.cheapWork(),
              core.heavyWork(),
              Optional.of(core.cache()));
      resources.add(flight);
      String memberId = ROLE + "@" + config.host() + ":" + flight.port();

      ClusterZooKeeper zookeeper = ClusterZooKeeper.start(config.zookeeper(), config.dataDir());
      resources.add(zookeeper);
      ZNodes nodes = new ZNodes(config.clusterName());
      AssignmentFollower follower =
          new AssignmentFollower(
                  zookeeper.client(), nodes, memberId, core.server(), new SnapshotLoader(catalogs))
              .start();
      resources.add(follower);
      // Registered last: the controller places files on a member only once it can serve them.
      resources.add(
          Members.register(
              zookeeper.client(),
              nodes,
              new Member(
                  memberId,
                  List.of(ROLE),
                  config.host(),
                  Map.of(RPC_PORT, flight.port()),
                  System.currentTimeMillis())));
      log.info("Server {} is serving fragments on {}:{}", memberId, config.host(), flight.port());
      return new ServerNode(resources, memberId, flight.port());
    } catch (IOException | RuntimeException e) {
      NodeResources.closeAll(resources);
      throw e;
    }
  }

  /** Its id in the cluster state, such as {@code server@127.0.0.1:8098}. */
  public String memberId() {
    return memberId;
  }

  /** The port of its Flight endpoint. */
  public int rpcPort() {
    return rpcPort;
  }

  /** Leaves the cluster first (its replicas are routed elsewhere), then stops serving. */
  @Override
  public void close() {
    NodeResources.closeAll(resources);
  }
}
