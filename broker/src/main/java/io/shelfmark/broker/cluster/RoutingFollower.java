package io.shelfmark.broker.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.routing.RoutingTable;
import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.SnapshotLoader;
import io.shelfmark.cluster.routing.AssignmentHead;
import io.shelfmark.cluster.routing.FileReplicas;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a broker's routing table equal to the routings the controller publishes in ZooKeeper: each
 * routing names a snapshot, and for each of its data files the ready segment and the servers that
 * serve it; the broker reads the snapshot's files and schema from the catalog and the segments'
 * statistics from the segment store, then publishes the whole route at once (its files' servers to
 * {@link ClusterReplicas} first). A table whose route cannot be built keeps its previous route (and
 * the failure is logged); a table whose routing is removed stops being served.
 */
public final class RoutingFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RoutingFollower.class);

  private static final long RESYNC_SECONDS = 30;

  private final TableAssignmentStore records;
  private final ZNodes nodes;
  private final SnapshotLoader snapshots;
  private final SegmentStatisticsReader statistics;
  private final RoutingTable routing;
  private final ClusterReplicas replicas;
  private final CuratorCache cache;
  private final Map<String, Long> published = new HashMap<>();
  private final ExecutorService reconciler =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().name("routing-follower").daemon(true).factory());
  private final ScheduledExecutorService resync =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("routing-resync").daemon(true).factory());
  private final AtomicBoolean pending = new AtomicBoolean();

  public RoutingFollower(
      CuratorFramework client,
      ZNodes nodes,
      SnapshotLoader snapshots,
      SegmentStatisticsReader statistics,
      RoutingTable routing,
      ClusterReplicas replicas) {
    this.records = new TableAssignmentStore(requireNonNull(client, "client is null"));
    this.nodes = requireNonNull(nodes, "nodes is null");
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
    this.statistics = requireNonNull(statistics, "statistics is null");
    this.routing = requireNonNull(routing, "routing is null");
    this.replicas = requireNonNull(replicas, "replicas is null");
    this.cache = CuratorCache.build(client, nodes.routings());
  }

  public RoutingFollower start() {
    // A split routing's parts are written before its head: the head's change is the event.
    cache
        .listenable()
        .addListener(
            (type, before, after) -> {
              if (!TableAssignmentStore.isPart(nodes.routings(), before, after)) {
                wake();
              }
            });
    cache.start();
    resync.scheduleWithFixedDelay(this::wake, RESYNC_SECONDS, RESYNC_SECONDS, TimeUnit.SECONDS);
    wake();
    return this;
  }

  private void wake() {
    if (pending.compareAndSet(false, true)) {
      reconciler.execute(
          () -> {
            pending.set(false);
            reconcile();
          });
    }
  }

  private void reconcile() {
    Map<String, AssignmentHead> heads;
    try {
      heads = records.heads(nodes.routings());
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot read the routings (retrying on the next change): {}", e.getMessage());
      return;
    }
    Set<String> live = new HashSet<>();
    for (Map.Entry<String, AssignmentHead> head : heads.entrySet()) {
      live.add(head.getValue().table());
      // Only a new version is read whole: a split routing of 50,000 files is a few MB of parts.
      if (Long.valueOf(head.getValue().version()).equals(published.get(head.getValue().table()))) {
        continue;
      }
      TableAssignment table = null;
      try {
        table = records.read(nodes.routings() + "/" + head.getKey()).orElse(null);
        if (table == null) {
          continue; // removed since the listing: the next pass drops it
        }
        TableRoute route = route(table);
        replicas.routed(route); // first: a query that finds the route finds its servers
        routing.publish(route);
        published.put(table.table(), table.version());
        log.info(
            "Routing {} at snapshot {} over {} servers (version {})",
            table.table(),
            table.snapshotId(),
            table.servers().size(),
            table.version());
      } catch (IOException | RuntimeException e) {
        String name = head.getValue().table();
        log.warn(
            "Cannot route {} at snapshot {} (keeping the previous route): {}",
            name,
            table == null ? head.getValue().snapshotId() : table.snapshotId(),
            e.getMessage());
        log.debug("Cannot route {}", name, e);
      }
    }
    for (String gone : Set.copyOf(published.keySet())) {
      if (!live.contains(gone)) {
        routing.remove(TableName.parse(gone));
        replicas.removed(gone);
        published.remove(gone);
        log.info("Stopped routing {}: its routing was removed", gone);
      }
    }
  }

  /** The broker's route of one routing: snapshot and schema from the catalog, statistics read. */
  TableRoute route(TableAssignment table) throws IOException {
    SnapshotLoader.Loaded loaded =
        snapshots.load(table.catalog(), table.namespace(), table.name(), table.snapshotId());
    Map<String, SegmentRoute> segments = new HashMap<>();
    Map<String, List<String>> replicas = new LinkedHashMap<>();
    for (Map.Entry<String, FileReplicas> file : table.files().entrySet()) {
      FileReplicas replica = file.getValue();
      replicas.put(file.getKey(), replica.servers());
      if (replica.segmentLocation().isPresent()) {
        String location = replica.segmentLocation().get();
        segments.put(
            file.getKey(),
            new SegmentRoute(
                location,
                replica.segmentBytes(),
                statistics.statistics(location, replica.segmentBytes())));
      }
    }
    return new TableRoute(
        IcebergSchemas.toBoundTable(TableName.parse(table.table()), loaded.schema()),
        loaded.schema(),
        loaded.specs(),
        loaded.snapshot(),
        segments,
        replicas);
  }

  @Override
  public void close() {
    resync.shutdownNow();
    cache.close();
    reconciler.shutdownNow();
  }
}
