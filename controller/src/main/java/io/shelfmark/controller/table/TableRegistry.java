package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.controller.state.SegmentRecord;
import io.shelfmark.controller.state.TableConfigCopies;
import io.shelfmark.controller.state.TableStateStore;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's tables: onboards a table config against its Iceberg catalog (validating it
 * against the table's schema first), serves the table's current snapshot at once — files without a
 * segment are read directly — and gets every live data file its segment in the background,
 * publishing the table again after each one. {@link #refresh} moves a table to its newest snapshot,
 * keeping the segments of files that are still live.
 *
 * <p>Every change publishes a whole new {@link ServedTable} to the listeners, in order per table,
 * so the routing never sees a half-changed snapshot, and {@link #table} reports a change only once
 * every listener has it (a table is not called ready before its segments are served).
 *
 * <p>Durable state goes to a {@link TableStateStore} (ZooKeeper in a node): the config at
 * onboarding, each segment's record as it is built or fails. {@link #restore} serves every stored
 * table again after a restart, taking the recorded segments as they are — no request per segment,
 * no rebuild of a segment whose record matches the data file and the spec — and builds only files
 * without a record. Only the leading controller builds segments ({@code leader}); a standby serves
 * what is recorded. All catalog reads happen here, at onboarding, restore and refresh, never on the
 * query path. Thread safe.
 */
public final class TableRegistry {
  private static final Logger log = LoggerFactory.getLogger(TableRegistry.class);

  private final Map<String, Catalog> catalogs;
  private final SegmentScheduler scheduler;
  private final TableStateStore state;
  private final BooleanSupplier leader;
  private final OnboardingValidator validator = new OnboardingValidator();
  private final Clock clock;
  private final ConcurrentSkipListMap<String, ServedTable> tables = new ConcurrentSkipListMap<>();
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final List<Consumer<ServedTable>> listeners = new CopyOnWriteArrayList<>();
  private final List<Consumer<String>> dropListeners = new CopyOnWriteArrayList<>();

  /**
   * A registry whose tables live only as long as the process, always leading (tests of one JVM).
   *
   * @param catalogs the configured catalogs by name, as table configs refer to them
   * @param scheduler builds or finds the segments of data files
   */
  public TableRegistry(Map<String, Catalog> catalogs, SegmentScheduler scheduler, Clock clock) {
    this(catalogs, scheduler, TableStateStore.none(), () -> true, clock);
  }

  /**
   * @param catalogs the configured catalogs by name, as table configs refer to them
   * @param scheduler builds or finds the segments of data files
   * @param state where table configs and segment records are kept
   * @param leader whether this controller leads now: only the leader schedules builds
   */
  public TableRegistry(
      Map<String, Catalog> catalogs,
      SegmentScheduler scheduler,
      TableStateStore state,
      BooleanSupplier leader,
      Clock clock) {
    this.catalogs = Map.copyOf(requireNonNull(catalogs, "catalogs is null"));
    this.scheduler = requireNonNull(scheduler, "scheduler is null");
    this.state = requireNonNull(state, "state is null");
    this.leader = requireNonNull(leader, "leader is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** Calls {@code listener} with the SQL name of every table dropped from now on. */
  public void addDropListener(Consumer<String> listener) {
    dropListeners.add(requireNonNull(listener, "listener is null"));
  }

  /**
   * Calls {@code listener} with every table published from now on (onboarded, refreshed, a segment
   * built or failed), in order per table, on the thread that made the change. Listeners must be
   * thread safe; a listener that throws is logged and does not stop the others.
   */
  public void addListener(Consumer<ServedTable> listener) {
    listeners.add(requireNonNull(listener, "listener is null"));
  }

  /**
   * Loads the table named by {@code config}, checks the config against its schema, reads its
   * current snapshot, records the config, starts serving it and schedules the segments of its data
   * files. Onboarding a table again replaces its config; segments built for the same spec (served
   * now, or recorded) are kept, not built again.
   *
   * @throws OnboardingException listing every reason when the table cannot be served, or when its
   *     config cannot be recorded
   */
  public ServedTable onboard(TableConfig config) throws OnboardingException {
    requireNonNull(config, "config is null");
    Table table = load(config.identity());
    List<Violation> violations = validator.validate(config, table.schema());
    if (!violations.isEmpty()) {
      throw new OnboardingException(config.identity().qualifiedName(), violations);
    }
    SegmentSpec spec;
    try {
      spec = SegmentSpec.from(config, table.schema());
    } catch (ConfigException e) {
      throw new OnboardingException(config.identity().qualifiedName(), e.violations());
    }
    String name = config.identity().qualifiedName();
    ServedTable current = tables.get(name);
    Map<String, SegmentState> kept =
        current != null && spec.fingerprint().equals(current.segmentSpec().fingerprint())
            ? current.segments()
            : Map.of();
    ServedTable served = sync(config, table, spec, kept, recorded(name));
    try {
      state.saveTable(config);
      if (current == null || !current.config().equals(config)) {
        // Beside the segments, so the state can be rebuilt from the store if ZooKeeper's is lost.
        new TableConfigCopies(scheduler.store()).write(config);
      }
    } catch (IOException e) {
      throw new OnboardingException(
          "Cannot onboard table " + name + ": cannot record its config: " + e.getMessage(), e);
    }
    synchronized (lock(name)) {
      publishThenReport(served);
    }
    log.info(
        "Onboarded table {} at snapshot {}: {} data files, {} rows, {} bytes; {} segments reused",
        name,
        served.snapshotId(),
        served.dataFiles(),
        served.records(),
        served.dataBytes(),
        served.segmentsReady() + served.segmentsFailed());
    scheduleSegments(served);
    return served;
  }

  /**
   * Serves every table the state store holds, as after a restart: each config is loaded, its
   * Iceberg table resolved at the current snapshot, and the recorded segments are taken as they
   * are; only data files without a matching record are built. A table that cannot be served now
   * (its catalog is down, its schema no longer fits) is logged and skipped; it stays recorded.
   *
   * @return the tables now served
   * @throws IOException when the state store cannot be read
   */
  public List<ServedTable> restore() throws IOException {
    List<ServedTable> restored = new ArrayList<>();
    for (TableStateStore.StoredTable stored : state.tables()) {
      TableConfig config = stored.config();
      String name = config.identity().qualifiedName();
      try {
        Table table = load(config.identity());
        SegmentSpec spec = SegmentSpec.from(config, table.schema());
        ServedTable served =
            sync(config, table, spec, Map.of(), byPath(stored.segments().values()));
        synchronized (lock(name)) {
          publishThenReport(served);
        }
        log.info(
            "Restored table {} at snapshot {}: {} of {} data files taken from their records, {} to"
                + " build",
            name,
            served.snapshotId(),
            served.segmentsReady() + served.segmentsFailed(),
            served.dataFiles(),
            served.segmentsPending());
        scheduleSegments(served);
        restored.add(served);
      } catch (OnboardingException | RuntimeException e) {
        log.error("Cannot serve stored table {} again: {}", name, e.getMessage());
      }
    }
    return restored;
  }

  /**
   * Stops serving a table and forgets its config and segment records. Its segments stay in the
   * segment store (an onboarding with the same config finds them).
   *
   * @return false when no such table was served or stored
   * @throws IOException when the state store cannot be changed (the table keeps being served)
   */
  public boolean drop(String sqlName) throws IOException {
    requireNonNull(sqlName, "sqlName is null");
    boolean stored = state.dropTable(sqlName);
    new TableConfigCopies(scheduler.store()).delete(sqlName);
    ServedTable removed;
    synchronized (lock(sqlName)) {
      removed = tables.remove(sqlName);
      if (removed != null) {
        for (Consumer<String> listener : dropListeners) {
          try {
            listener.accept(sqlName);
          } catch (RuntimeException e) {
            log.error("A listener failed on dropping table {}", sqlName, e);
          }
        }
      }
    }
    if (removed != null || stored) {
      log.info("Dropped table {}", sqlName);
    }
    return removed != null || stored;
  }

  /** The recorded segments of a table, by data file path; empty when none or unreadable. */
  private Map<String, SegmentRecord> recorded(String sqlName) {
    try {
      return byPath(state.segments(sqlName).values());
    } catch (IOException e) {
      log.warn(
          "Cannot read the segment records of {} (its files are checked in the segment store"
              + " instead): {}",
          sqlName,
          e.getMessage());
      return Map.of();
    }
  }

  private static Map<String, SegmentRecord> byPath(Iterable<SegmentRecord> records) {
    Map<String, SegmentRecord> byPath = new HashMap<>();
    for (SegmentRecord record : records) {
      byPath.put(record.dataFile(), record);
    }
    return byPath;
  }

  /**
   * Moves a served table to its catalog's current snapshot when that changed: the new snapshot is
   * published at once, keeping the segments of data files still live and scheduling the rest.
   *
   * @return the table as now served; empty when no such table is served
   * @throws OnboardingException when the catalog cannot be read or the schema no longer fits the
   *     config (the old snapshot keeps being served)
   */
  public Optional<ServedTable> refresh(String sqlName) throws OnboardingException {
    ServedTable current = tables.get(requireNonNull(sqlName, "sqlName is null"));
    if (current == null) {
      return Optional.empty();
    }
    Table table = load(current.config().identity());
    long snapshotId = table.currentSnapshot() == null ? -1 : table.currentSnapshot().snapshotId();
    if (snapshotId == current.snapshotId()) {
      return Optional.of(current);
    }
    SegmentSpec spec;
    try {
      spec = SegmentSpec.from(current.config(), table.schema());
    } catch (ConfigException e) {
      throw new OnboardingException(sqlName, e.violations());
    }
    Map<String, SegmentState> kept =
        spec.fingerprint().equals(current.segmentSpec().fingerprint())
            ? current.segments()
            : Map.of();
    ServedTable next = sync(current.config(), table, spec, kept, recorded(sqlName));
    synchronized (lock(sqlName)) {
      publishThenReport(next);
    }
    forgetRecordsOfRetiredFiles(next);
    log.info(
        "Table {} moved from snapshot {} to {}: {} data files, {} segments kept",
        sqlName,
        current.snapshotId(),
        next.snapshotId(),
        next.dataFiles(),
        next.segmentsReady());
    scheduleSegments(next);
    return Optional.of(next);
  }

  /** Every served table, sorted by SQL name. */
  public List<ServedTable> tables() {
    return List.copyOf(tables.values());
  }

  /** The served table with that SQL name ({@code namespace.name}). */
  public Optional<ServedTable> table(String sqlName) {
    return Optional.ofNullable(tables.get(sqlName));
  }

  private void forgetRecordsOfRetiredFiles(ServedTable table) {
    Set<String> live = new HashSet<>();
    for (DataFileInfo file : table.snapshot().dataFiles()) {
      live.add(SegmentRecord.fileKey(file.path(), file.fileSizeInBytes()));
    }
    try {
      state.retainSegments(table.sqlName(), live);
    } catch (IOException e) {
      log.warn(
          "Cannot forget the segment records of files {} no longer holds: {}",
          table.sqlName(),
          e.getMessage());
    }
  }

  private void scheduleSegments(ServedTable served) {
    if (!leader.getAsBoolean()) {
      log.info(
          "Not building the {} pending segments of {}: this controller does not lead",
          served.segmentsPending(),
          served.sqlName());
      return;
    }
    for (DataFileInfo file : served.snapshot().dataFiles()) {
      if (served.segments().get(file.path()) instanceof SegmentState.Pending) {
        scheduler.schedule(
            file,
            served.segmentSpec(),
            served.formatVersion(),
            (done, state) ->
                segmentDone(served.sqlName(), served.segmentSpec().fingerprint(), done, state));
      }
    }
  }

  private void segmentDone(
      String sqlName, String fingerprint, DataFileInfo file, SegmentState state) {
    if (tables.containsKey(sqlName)) { // not for a table dropped meanwhile
      record(sqlName, file, fingerprint, state);
    }
    update(
        sqlName,
        current ->
            current.segments().containsKey(file.path())
                    && current.segments().get(file.path()) instanceof SegmentState.Pending
                ? current.withSegment(file.path(), state)
                : current);
  }

  /**
   * Records a segment's outcome durably before it is published: a restart then never builds again
   * what was built. A failure to record is logged; the segment is then found in the segment store
   * (one request) when the file is next scheduled.
   */
  private void record(String sqlName, DataFileInfo file, String fingerprint, SegmentState segment) {
    Optional<SegmentRecord> record =
        SegmentRecord.of(file.path(), file.fileSizeInBytes(), fingerprint, segment);
    if (record.isEmpty()) {
      return;
    }
    try {
      state.saveSegment(sqlName, record.get());
    } catch (IOException e) {
      log.warn("Cannot record the segment of {} of {}: {}", file.path(), sqlName, e.getMessage());
    }
  }

  private void update(String sqlName, UnaryOperator<ServedTable> change) {
    synchronized (lock(sqlName)) {
      ServedTable current = tables.get(sqlName);
      if (current == null) {
        return;
      }
      ServedTable next = change.apply(current);
      if (next != current) {
        publishThenReport(next);
        if (next.segmentsPending() == 0) {
          log.info(
              "Table {} at snapshot {} is fully indexed: {} segments ({} bytes), {} failed",
              sqlName,
              next.snapshotId(),
              next.segmentsReady(),
              next.indexBytes(),
              next.segmentsFailed());
        }
      }
    }
  }

  /**
   * Hands {@code table} to the listeners, then reports it ({@link #table}, {@link #tables}): a
   * listener opens segments and routes queries to them, so a status that showed the change first
   * would call a table ready that is not served yet. Called with the table's lock held.
   */
  private void publishThenReport(ServedTable table) {
    publish(table);
    tables.put(table.sqlName(), table);
  }

  private void publish(ServedTable table) {
    for (Consumer<ServedTable> listener : listeners) {
      try {
        listener.accept(table);
      } catch (RuntimeException e) {
        log.error("A listener failed on table {}", table.sqlName(), e);
      }
    }
  }

  private Object lock(String sqlName) {
    return locks.computeIfAbsent(sqlName, name -> new Object());
  }

  private Table load(TableIdentity identity) throws OnboardingException {
    Catalog catalog = catalogs.get(identity.catalog());
    if (catalog == null) {
      throw new OnboardingException(
          identity.qualifiedName(),
          List.of(
              new Violation(
                  "table.catalog",
                  "Cannot use table.catalog: \""
                      + identity.catalog()
                      + "\" is not a configured catalog (configured: "
                      + String.join(", ", catalogs.keySet().stream().sorted().toList())
                      + ")")));
    }
    try {
      return catalog.loadTable(TableIdentifier.of(identity.namespace(), identity.name()));
    } catch (NoSuchTableException e) {
      throw new OnboardingException(
          identity.qualifiedName(),
          List.of(
              new Violation(
                  "table.name",
                  "Cannot load table "
                      + identity.qualifiedName()
                      + " from catalog '"
                      + identity.catalog()
                      + "': no such table (check table.namespace and table.name)")));
    } catch (RuntimeException e) {
      throw new OnboardingException(
          "Cannot load table "
              + identity.qualifiedName()
              + " from catalog '"
              + identity.catalog()
              + "': "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Reads the table's current snapshot and gives each live file a segment state: ready when it is
   * ready in {@code kept} (the table as served, same spec), else what its record in {@code
   * recorded} says when the record matches the file and the spec (ready, or failed for a reason a
   * new build would repeat), else pending.
   */
  private ServedTable sync(
      TableConfig config,
      Table table,
      SegmentSpec spec,
      Map<String, SegmentState> kept,
      Map<String, SegmentRecord> recorded)
      throws OnboardingException {
    TableSnapshot snapshot;
    try {
      snapshot = TableSnapshot.current(table);
    } catch (RuntimeException e) {
      throw new OnboardingException(
          "Cannot list the files of " + config.identity().qualifiedName() + ": " + e.getMessage(),
          e);
    }
    Map<String, SegmentState> segments = new LinkedHashMap<>();
    String fingerprint = spec.fingerprint();
    for (DataFileInfo file : snapshot.dataFiles()) {
      SegmentState previous = kept.get(file.path());
      if (previous instanceof SegmentState.Ready) {
        segments.put(file.path(), previous);
        continue;
      }
      SegmentRecord record = recorded.get(file.path());
      segments.put(
          file.path(),
          record == null
              ? SegmentState.PENDING
              : record
                  .stateFor(file.path(), file.fileSizeInBytes(), fingerprint)
                  .orElse(SegmentState.PENDING));
    }
    return new ServedTable(
        config,
        table.schema(),
        table.specs(),
        formatVersion(table),
        snapshot,
        spec,
        segments,
        clock.instant());
  }

  private static int formatVersion(Table table) {
    return table instanceof HasTableOperations operations
        ? operations.operations().current().formatVersion()
        : 0;
  }
}
