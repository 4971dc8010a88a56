package io.shelfmark.controller.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.cluster.member.Drains;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.routing.FileReplicas;
import io.shelfmark.cluster.routing.ServedFiles;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.assignment.ReplicaAssignment;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller leader's half of serving: places every live data file of each served table on as
 * many servers as its config's {@code replication} asks ({@link ReplicaAssignment}, written as the
 * table's assignment), and publishes the table's routing once every file of the assignment's
 * snapshot is served by at least one server that reported it — so brokers only ever route to a
 * whole snapshot that servers hold.
 *
 * <p>A server marked drained ({@link Drains}) is given no file: its files are placed on the others,
 * and it keeps serving what the routing still sends it until they serve.
 *
 * <p>Wakes on a table change (a snapshot synced, a segment ready), on membership changes (a server
 * joined, left or died), on drain marks and on servers' reports; one thread reconciles, reading the
 * state it converges on from ZooKeeper, so coalesced events lose nothing. A standby does nothing
 * until it leads. Files without a ready segment are placed too: their servers read them directly.
 */
public final class AssignmentPublisher implements Consumer<ServedTable>, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AssignmentPublisher.class);

  /** The role servers register with. */
  public static final String SERVER_ROLE = "server";

  /**
   * What a file without a ready segment weighs in the balance: a server reads it whole from
   * storage, so it costs about what its segment would, about a sixteenth of the data file.
   */
  private static final int DIRECT_READ_WEIGHT_DIVISOR = 16;

  /** At most one reconciliation this often: a table indexing 150 files changes 150 times. */
  private static final long MIN_INTERVAL_MILLIS = 200;

  private static final long RESYNC_SECONDS = 10;

  private final VersionedJson state;
  private final TableAssignmentStore records;
  private final CuratorFramework client;
  private final ZNodes nodes;
  private final BooleanSupplier leading;
  private final Map<String, ServedTable> tables = new ConcurrentHashMap<>();
  private final ExecutorService reconciler =
      Executors.newSingleThreadExecutor(
          Thread.ofPlatform().name("assignment-publisher").daemon(true).factory());
  private final ScheduledExecutorService resync =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("assignment-resync").daemon(true).factory());
  private final AtomicBoolean pending = new AtomicBoolean();
  private final List<CuratorCache> caches;

  /**
   * @param leading whether this controller leads now; a standby publishes nothing
   */
  public AssignmentPublisher(CuratorFramework client, ZNodes nodes, BooleanSupplier leading) {
    this.client = requireNonNull(client, "client is null");
    this.state = new VersionedJson(client);
    this.records = new TableAssignmentStore(client);
    this.nodes = requireNonNull(nodes, "nodes is null");
    this.leading = requireNonNull(leading, "leading is null");
    this.caches =
        List.of(
            CuratorCache.build(client, nodes.members()),
            CuratorCache.build(client, nodes.drains()),
            CuratorCache.build(client, nodes.assignments()));
  }

  public AssignmentPublisher start() {
    for (CuratorCache cache : caches) {
      // A split assignment's parts are written before its head: the head's change is the event.
      cache
          .listenable()
          .addListener(
              (type, before, after) -> {
                if (!TableAssignmentStore.isPart(nodes.assignments(), before, after)) {
                  wake();
                }
              });
      cache.start();
    }
    resync.scheduleWithFixedDelay(this::wake, RESYNC_SECONDS, RESYNC_SECONDS, TimeUnit.SECONDS);
    return this;
  }

  /** A served table changed: place its files again. */
  @Override
  public void accept(ServedTable table) {
    tables.put(table.sqlName(), table);
    wake();
  }

  /** A table is no longer served: its assignment and routing go. */
  public void drop(String table) throws IOException {
    tables.remove(table);
    if (leading.getAsBoolean()) {
      records.delete(nodes.routing(table));
      records.delete(nodes.assignment(table));
    }
  }

  /** Reconciles now, on the caller's wait; for the leader taking over and for tests. */
  public void reconcileNow() {
    try {
      reconciler.submit(this::reconcileAll).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    }
  }

  private void wake() {
    if (pending.compareAndSet(false, true)) {
      reconciler.execute(
          () -> {
            pending.set(false);
            reconcileAll();
            try {
              Thread.sleep(MIN_INTERVAL_MILLIS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
    }
  }

  private void reconcileAll() {
    if (!leading.getAsBoolean() || tables.isEmpty()) {
      return;
    }
    Set<String> servers;
    try {
      servers = new TreeSet<>();
      for (Member member : Members.live(client, nodes)) {
        if (member.roles().contains(SERVER_ROLE)) {
          servers.add(member.id());
        }
      }
      servers.removeAll(Drains.drained(client, nodes));
    } catch (IOException | RuntimeException e) {
      log.warn("Cannot list the live servers (retrying on the next change): {}", e.getMessage());
      return;
    }
    for (ServedTable table : tables.values()) {
      try {
        reconcile(table, servers);
      } catch (IOException | RuntimeException e) {
        log.warn(
            "Cannot publish the assignment of {} (retrying on the next change): {}",
            table.sqlName(),
            e.getMessage());
        log.debug("Cannot publish the assignment of {}", table.sqlName(), e);
      }
    }
  }

  private void reconcile(ServedTable table, Set<String> servers) throws IOException {
    String name = table.sqlName();
    Optional<TableAssignment> current = records.read(nodes.assignment(name));
    TableAssignment placed = place(table, servers, current);
    TableAssignment assignment =
        records.update(
            nodes.assignment(name),
            previous ->
                previous.isPresent() && previous.get().sameAs(placed)
                    ? previous.get()
                    : placed.withVersion(previous.map(p -> p.version() + 1).orElse(1L)));
    publishRouting(assignment);
  }

  /** The assignment of {@code table}'s current files, keeping what {@code current} placed. */
  private TableAssignment place(
      ServedTable table, Set<String> servers, Optional<TableAssignment> current) {
    Map<String, Long> weights = new LinkedHashMap<>();
    Map<String, FileReplicas> files = new LinkedHashMap<>();
    for (DataFileInfo file : table.snapshot().dataFiles()) {
      SegmentState segment = table.segments().get(file.path());
      if (segment instanceof SegmentState.Ready ready) {
        weights.put(file.path(), Math.max(1, ready.sizeInBytes()));
        files.put(
            file.path(),
            new FileReplicas(ready.location().toString(), ready.sizeInBytes(), List.of()));
      } else {
        weights.put(file.path(), Math.max(1, file.fileSizeInBytes() / DIRECT_READ_WEIGHT_DIVISOR));
        files.put(file.path(), new FileReplicas(null, 0, List.of()));
      }
    }
    Map<String, List<String>> previous = new HashMap<>();
    current.ifPresent(
        assignment ->
            assignment.files().forEach((path, file) -> previous.put(path, file.servers())));
    Map<String, List<String>> placement =
        ReplicaAssignment.assign(weights, servers, table.config().replication(), previous);
    Map<String, FileReplicas> placed = new LinkedHashMap<>();
    files.forEach((path, file) -> placed.put(path, file.withServers(placement.get(path))));
    TableIdentity identity = table.config().identity();
    return new TableAssignment(
        table.sqlName(),
        identity.catalog(),
        identity.namespace(),
        identity.name(),
        table.snapshotId(),
        0,
        placed);
  }

  /**
   * Publishes the routing of {@code assignment} when every file is served somewhere at its
   * snapshot, and it differs from the current routing. Until then the current routing (an older
   * snapshot, or fewer replicas) stays.
   */
  private void publishRouting(TableAssignment assignment) throws IOException {
    Map<String, Set<String>> served = new HashMap<>();
    for (Map.Entry<String, ServedFiles> report :
        state.children(nodes.servedReports(assignment.table()), ServedFiles.class).entrySet()) {
      if (report.getValue().snapshotId() == assignment.snapshotId()) {
        served.put(ZNodes.tableName(report.getKey()), Set.copyOf(report.getValue().files()));
      }
    }
    TableAssignment routing = assignment.servedBy(served);
    if (!routing.covered()) {
      log.debug(
          "Not routing {} at snapshot {} yet: some files are served by no server",
          assignment.table(),
          assignment.snapshotId());
      return;
    }
    TableAssignment published =
        records.update(
            nodes.routing(assignment.table()),
            previous ->
                previous.isPresent() && previous.get().sameAs(routing)
                    ? previous.get()
                    : routing.withVersion(previous.map(p -> p.version() + 1).orElse(1L)));
    log.debug(
        "Routing {} at snapshot {}: version {}",
        published.table(),
        published.snapshotId(),
        published.version());
  }

  @Override
  public void close() {
    resync.shutdownNow();
    caches.forEach(CuratorCache::close);
    reconciler.shutdownNow();
  }
}
