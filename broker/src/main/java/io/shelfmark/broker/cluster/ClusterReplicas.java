package io.shelfmark.broker.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.dispatch.ReplicaMap;
import io.shelfmark.broker.dispatch.ServerEndpoint;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The servers of each data file, as the routings name them (by member id), resolved to the Flight
 * endpoints the live members advertise. The last two routes of each table are kept: a query planned
 * on a route just replaced still finds its servers (which keep the previous snapshot served). A
 * server whose member node is gone is left out, so a query goes straight to the next replica.
 * Thread safe; a lookup does no I/O.
 */
public final class ClusterReplicas implements ReplicaMap, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ClusterReplicas.class);

  /** The port name servers advertise their Flight endpoint under. */
  public static final String RPC_PORT = "server-rpc";

  private final CuratorFramework client;
  private final ZNodes nodes;
  private final CuratorCache members;
  private final Map<String, ServerEndpoint> endpoints = new ConcurrentHashMap<>();
  private final Map<String, List<TableRoute>> routes = new ConcurrentHashMap<>();

  public ClusterReplicas(CuratorFramework client, ZNodes nodes) {
    this.client = requireNonNull(client, "client is null");
    this.nodes = requireNonNull(nodes, "nodes is null");
    this.members = CuratorCache.build(client, nodes.members());
  }

  public ClusterReplicas start() {
    members.listenable().addListener((type, before, after) -> refreshMembers());
    members.start();
    refreshMembers();
    return this;
  }

  private synchronized void refreshMembers() {
    try {
      Map<String, ServerEndpoint> live = new java.util.HashMap<>();
      for (Member member : Members.live(client, nodes)) {
        Integer port = member.ports().get(RPC_PORT);
        if (port != null) {
          live.put(member.id(), new ServerEndpoint(member.host(), port));
        }
      }
      endpoints.keySet().retainAll(live.keySet());
      endpoints.putAll(live);
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot list the live servers (keeping the last list): {}", e.getMessage());
    }
  }

  /** Records a route about to be published: its files' servers become known. */
  public void routed(TableRoute route) {
    String table = route.table().name().toString();
    routes.compute(
        table,
        (name, kept) -> {
          List<TableRoute> next = new ArrayList<>(2);
          next.add(route);
          if (kept != null
              && !kept.isEmpty()
              && kept.getFirst().snapshotId() != route.snapshotId()) {
            next.add(kept.getFirst());
          }
          return List.copyOf(next);
        });
  }

  /** Forgets a table that is no longer routed. */
  public void removed(String table) {
    routes.remove(table);
  }

  @Override
  public List<ServerEndpoint> replicas(String table, long snapshotId, String dataFile) {
    for (TableRoute route : routes.getOrDefault(table, List.of())) {
      if (route.snapshotId() == snapshotId) {
        List<ServerEndpoint> servers = new ArrayList<>();
        for (String member : route.replicas().getOrDefault(dataFile, List.of())) {
          ServerEndpoint endpoint = endpoints.get(member);
          if (endpoint != null) {
            servers.add(endpoint);
          }
        }
        return servers;
      }
    }
    return List.of();
  }

  @Override
  public void close() {
    members.close();
  }
}
