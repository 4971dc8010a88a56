package io.shelfmark.server.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.SnapshotLoader;
import io.shelfmark.cluster.routing.AssignmentHead;
import io.shelfmark.cluster.routing.FileReplicas;
import io.shelfmark.cluster.routing.ServedFiles;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.server.local.SegmentRef;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes this server serve what the cluster state gives it: for each table, the data files its
 * assignment names this server for, plus the files the current routing still sends here (a file
 * moving to another server stays served here until the routing moves it, so no query finds it
 * served nowhere). Once they are open, the server reports them ({@link ServedFiles}, an ephemeral
 * node), which is what lets the controller route to them.
 *
 * <p>A file the state stops giving this server (it moved, or the server is drained) is still served
 * for {@link #LINGER} at the same snapshot: a broker that has not yet seen the routing that moved
 * it may still send it here, and would otherwise find it served by none of the replicas it knows.
 *
 * <p>Every change to the assignments or routings (a ZooKeeper watch through Curator's cache) wakes
 * one reconciling thread, which reads the current state and converges on it: events are hints, the
 * state read is the truth, so missed or coalesced events lose nothing.
 */
public final class AssignmentFollower implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AssignmentFollower.class);

  /** How often the state is read again even without an event: a safety net, not the mechanism. */
  private static final long RESYNC_SECONDS = 30;

  /**
   * How long a file the state no longer gives this server stays served: longer than a broker takes
   * to see a routing change (a ZooKeeper watch, milliseconds; seconds on a loaded machine).
   */
  static final java.time.Duration LINGER = java.time.Duration.ofSeconds(10);

  private final CuratorFramework client;
  private final TableAssignmentStore records;
  private final ZNodes nodes;
  private final String memberId;
  private final LocalServer server;
  private final SnapshotLoader snapshots;
  private final ExecutorService reconciler =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().name("assignment-follower").daemon(true).factory());
  private final AtomicBoolean pending = new AtomicBoolean();
  private final Set<String> served = new HashSet<>();
  private final Map<String, ServedFiles> reported = new HashMap<>();

  /** By table: files no longer given to this server, with when they stop being served. */
  private final Map<String, Map<String, Long>> lingering = new HashMap<>();

  private final List<CuratorCache> caches;
  private final java.util.concurrent.ScheduledExecutorService resync =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("assignment-resync").daemon(true).factory());

  /**
   * @param memberId this server's member id, as assignments name it
   */
  public AssignmentFollower(
      CuratorFramework client,
      ZNodes nodes,
      String memberId,
      LocalServer server,
      SnapshotLoader snapshots) {
    this.client = requireNonNull(client, "client is null");
    this.records = new TableAssignmentStore(client);
    this.nodes = requireNonNull(nodes, "nodes is null");
    this.memberId = requireNonNull(memberId, "memberId is null");
    this.server = requireNonNull(server, "server is null");
    this.snapshots = requireNonNull(snapshots, "snapshots is null");
    this.caches =
        List.of(
            CuratorCache.build(client, nodes.assignments()),
            CuratorCache.build(client, nodes.routings()));
  }

  /** Starts following; the first reconciliation runs at once. */
  public AssignmentFollower start() {
    List<String> parents = List.of(nodes.assignments(), nodes.routings()); // the caches' order
    for (int i = 0; i < caches.size(); i++) {
      CuratorCache cache = caches.get(i);
      String parent = parents.get(i);
      // A split record's parts are written before its head: the head's change is the event.
      cache
          .listenable()
          .addListener(
              (type, before, after) -> {
                if (!TableAssignmentStore.isPart(parent, before, after)) {
                  wake();
                }
              });
      cache.start();
    }
    resync.scheduleWithFixedDelay(this::wake, RESYNC_SECONDS, RESYNC_SECONDS, TimeUnit.SECONDS);
    wake();
    return this;
  }

  /** Asks for a reconciliation; several asks while one is queued make one. */
  private void wake() {
    if (pending.compareAndSet(false, true)) {
      reconciler.execute(
          () -> {
            pending.set(false);
            reconcileAll();
          });
    }
  }

  private void reconcileAll() {
    Set<String> tables = new TreeSet<>(served);
    try {
      records.heads(nodes.assignments()).values().stream()
          .map(AssignmentHead::table)
          .forEach(tables::add);
      records.heads(nodes.routings()).values().stream()
          .map(AssignmentHead::table)
          .forEach(tables::add);
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot read the assignments (retrying on the next change): {}", e.getMessage());
      return;
    }
    for (String table : tables) {
      try {
        reconcile(table);
      } catch (IOException | RuntimeException e) {
        log.warn(
            "Cannot serve the assignment of {} (retrying on the next change): {}",
            table,
            e.getMessage());
        log.debug("Cannot serve the assignment of {}", table, e);
      }
    }
  }

  private void reconcile(String table) throws IOException {
    Optional<TableAssignment> assignment = records.read(nodes.assignment(table));
    Optional<TableAssignment> routing = records.read(nodes.routing(table));
    if (assignment.isEmpty() && routing.isEmpty()) {
      if (served.remove(table)) {
        server.drop(table);
        reported.remove(table);
        lingering.remove(table);
        log.info("Stopped serving {}: it is no longer assigned", table);
      }
      return;
    }
    TableAssignment target = assignment.orElseGet(routing::get);
    Set<String> files = new LinkedHashSet<>(target.filesOf(memberId));
    // A routing of another snapshot is served first, so that it stays served as the previous one.
    if (routing.isPresent() && routing.get().snapshotId() != target.snapshotId()) {
      List<String> routed = routing.get().filesOf(memberId);
      if (!routed.isEmpty()) {
        serve(routing.get(), new LinkedHashSet<>(routed));
      }
    } else if (routing.isPresent()) {
      files.addAll(routing.get().filesOf(memberId));
    }
    files.addAll(lingering(table, target.snapshotId(), files));
    serve(target, files);
    served.add(table);
    report(table, new ServedFiles(target.version(), target.snapshotId(), List.copyOf(files)));
  }

  /**
   * The files of {@code table} this server served at {@code snapshotId} and still serves for a
   * while though {@code files} no longer has them; a wake is scheduled for when the first ends.
   */
  private Set<String> lingering(String table, long snapshotId, Set<String> files) {
    long now = System.nanoTime();
    Map<String, Long> until = lingering.computeIfAbsent(table, t -> new HashMap<>());
    ServedFiles previous = reported.get(table);
    if (previous == null || previous.snapshotId() != snapshotId) {
      until.clear(); // another snapshot: the previous one's files are not live in this one
      return Set.of();
    }
    for (String file : previous.files()) {
      if (!files.contains(file)) {
        until.putIfAbsent(file, now + LINGER.toNanos());
      }
    }
    until.keySet().removeIf(files::contains);
    until.values().removeIf(end -> end - now <= 0);
    until.values().stream()
        .mapToLong(end -> end - now)
        .min()
        .ifPresent(wait -> resync.schedule(this::wake, wait + 1_000_000, TimeUnit.NANOSECONDS));
    return Set.copyOf(until.keySet());
  }

  private void serve(TableAssignment assignment, Set<String> files) {
    SnapshotLoader.Loaded loaded =
        snapshots
            .load(
                assignment.catalog(),
                assignment.namespace(),
                assignment.name(),
                assignment.snapshotId())
            .only(files);
    Map<String, SegmentRef> ready = new HashMap<>();
    for (String file : files) {
      FileReplicas replicas = assignment.files().get(file);
      if (replicas != null && replicas.segmentLocation().isPresent()) {
        ready.put(
            file,
            new SegmentRef(
                Location.parse(replicas.segmentLocation().get()), replicas.segmentBytes()));
      }
    }
    server.serve(assignment.table(), loaded.schema(), loaded.snapshot(), ready);
  }

  /**
   * Writes this server's report on {@code table} when it changed or is not this session's: a server
   * restarted within the session timeout finds its previous life's ephemeral report, which
   * ZooKeeper deletes when that session expires, so it replaces it with one of its own.
   */
  private void report(String table, ServedFiles files) throws IOException {
    byte[] value = files.encode(table);
    String path = nodes.served(table, memberId);
    try {
      long session = client.getZookeeperClient().getZooKeeper().getSessionId();
      Stat stat = client.checkExists().forPath(path);
      if (stat != null
          && stat.getEphemeralOwner() == session
          && files.equals(reported.get(table))) {
        return;
      }
      if (stat != null && stat.getEphemeralOwner() != session) {
        client.delete().forPath(path);
        stat = null;
      }
      if (stat == null) {
        client
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .forPath(path, value);
      } else {
        client.setData().forPath(path, value);
      }
    } catch (Exception e) {
      throw new IOException(
          "Cannot report what this server serves of " + table + ": " + e.getMessage(), e);
    }
    reported.put(table, files);
    log.info(
        "Serving {} files of {} at snapshot {} (assignment version {})",
        files.files().size(),
        table,
        files.snapshotId(),
        files.version());
  }

  @Override
  public void close() {
    resync.shutdownNow();
    caches.forEach(CuratorCache::close);
    reconciler.shutdownNow();
    try {
      reconciler.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
