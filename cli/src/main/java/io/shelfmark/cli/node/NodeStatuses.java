package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.dispatch.ServerEndpoint;
import io.shelfmark.broker.health.HealthMonitor;
import io.shelfmark.broker.node.NodeDirectory;
import io.shelfmark.broker.node.NodeStatus;
import io.shelfmark.cache.TieredCache;
import io.shelfmark.cache.stats.TierStats;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.exchange.fragment.NodeReport;
import io.shelfmark.server.node.ServerNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The node directories the console's nodes page reads ({@code GET /nodes}). */
final class NodeStatuses {
  private static final Logger log = LoggerFactory.getLogger(NodeStatuses.class);

  private NodeStatuses() {}

  /**
   * This process as it sees itself.
   *
   * @param self its registration (id, roles, host, ports, start time); read at each request, since
   *     the ports are known only once bound
   * @param segments segments it serves now; -1 when it serves none by role
   * @param cache its tiered cache; null when it has none
   */
  static NodeDirectory local(
      Supplier<Member> self, HealthMonitor health, LongSupplier segments, TieredCache cache) {
    requireNonNull(self, "self is null");
    requireNonNull(health, "health is null");
    requireNonNull(segments, "segments is null");
    return () -> List.of(status(self.get(), health, segments.getAsLong(), cache));
  }

  /**
   * This process as it sees itself, then every other live member of the cluster from ZooKeeper:
   * their roles, addresses and start times (their segments and caches are theirs to report). When
   * ZooKeeper cannot be read, this process alone.
   */
  static NodeDirectory cluster(CuratorFramework client, ZNodes nodes, NodeDirectory self) {
    return cluster(client, nodes, self, endpoint -> Optional.empty());
  }

  /**
   * As {@link #cluster(CuratorFramework, ZNodes, NodeDirectory)}, with each live server's segments
   * and cache per tier as {@code reports} gets them from the server itself (the data plane's node
   * report action), asked in parallel; a server that does not answer is shown without them.
   */
  static NodeDirectory cluster(
      CuratorFramework client,
      ZNodes nodes,
      NodeDirectory self,
      Function<ServerEndpoint, Optional<NodeReport>> reports) {
    requireNonNull(client, "client is null");
    requireNonNull(nodes, "nodes is null");
    requireNonNull(self, "self is null");
    requireNonNull(reports, "reports is null");
    return () -> {
      List<NodeStatus> statuses = new ArrayList<>(self.nodes());
      List<Member> members;
      try {
        members = Members.live(client, nodes);
      } catch (IOException e) {
        log.debug("Cannot list the cluster's members for GET /nodes", e);
        return statuses;
      }
      List<Member> others =
          members.stream()
              .filter(
                  member -> statuses.stream().noneMatch(known -> known.id().equals(member.id())))
              .sorted(Comparator.comparing(Member::id))
              .toList();
      List<CompletableFuture<Optional<NodeReport>>> asked = new ArrayList<>();
      for (Member member : others) {
        Integer rpc = member.ports().get(ServerNode.RPC_PORT);
        asked.add(
            rpc == null
                ? CompletableFuture.completedFuture(Optional.empty())
                : CompletableFuture.supplyAsync(
                    () -> reports.apply(new ServerEndpoint(member.host(), rpc)),
                    Thread::startVirtualThread));
      }
      for (int i = 0; i < others.size(); i++) {
        Member member = others.get(i);
        Optional<NodeReport> report = asked.get(i).join();
        statuses.add(
            new NodeStatus(
                member.id(),
                member.roles(),
                member.host(),
                member.ports(),
                "LIVE",
                member.startedAtMillis(),
                report.map(NodeReport::segments).orElse(-1L),
                report.map(NodeStatuses::tiers).orElse(List.of())));
      }
      return statuses;
    };
  }

  private static List<NodeStatus.CacheTierUse> tiers(NodeReport report) {
    List<NodeStatus.CacheTierUse> tiers = new ArrayList<>();
    for (NodeReport.Tier tier : report.tiers()) {
      tiers.add(
          new NodeStatus.CacheTierUse(
              tier.name(),
              tier.usedBytes(),
              tier.maxBytes(),
              tier.entries(),
              tier.hits(),
              tier.misses(),
              tier.evictions()));
    }
    return tiers;
  }

  private static NodeStatus status(
      Member self, HealthMonitor health, long segments, TieredCache cache) {
    List<NodeStatus.CacheTierUse> tiers = new ArrayList<>();
    if (cache != null) {
      tiers.add(tier(cache.stats().memory()));
      tiers.add(tier(cache.stats().disk()));
    }
    return new NodeStatus(
        self.id(),
        self.roles(),
        self.host(),
        self.ports(),
        health.healthy() ? "OK" : "DEGRADED",
        self.startedAtMillis(),
        segments,
        tiers);
  }

  private static NodeStatus.CacheTierUse tier(TierStats tier) {
    return new NodeStatus.CacheTierUse(
        tier.name(),
        tier.weightedSize(),
        tier.maximumWeight(),
        tier.entryCount(),
        tier.stats().hitCount(),
        tier.stats().missCount(),
        tier.stats().evictionCount());
  }
}
