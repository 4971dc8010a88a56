package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * every listener has it (a table is not called ready before its segments are served). State is in
 * memory: the durable metadata store arrives with the distributed controller. All catalog reads
 * happen here, at onboarding and refresh, never on the query path. Thread safe.
 */
public final class TableRegistry {
  private static final Logger log = LoggerFactory.getLogger(TableRegistry.class);

  private final Map<String, Catalog> catalogs;
  private final SegmentScheduler scheduler;
  private final OnboardingValidator validator = new OnboardingValidator();
  private final Clock clock;
  private final ConcurrentSkipListMap<String, ServedTable> tables = new ConcurrentSkipListMap<>();
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final List<Consumer<ServedTable>> listeners = new CopyOnWriteArrayList<>();

  /**
   * @param catalogs the configured catalogs by name, as table configs refer to them
   * @param scheduler builds or finds the segments of data files
   */
  public TableRegistry(Map<String, Catalog> catalogs, SegmentScheduler scheduler, Clock clock) {
    this.catalogs = Map.copyOf(requireNonNull(catalogs, "catalogs is null"));
    this.scheduler = requireNonNull(scheduler, "scheduler is null");
    this.clock = requireNonNull(clock, "clock is null");
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
   * current snapshot, starts serving it and schedules the segments of its data files. Onboarding a
   * table again replaces its config.
   *
   * @throws OnboardingException listing every reason when the table cannot be served
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
    ServedTable served = sync(config, table, spec, Map.of());
    String name = served.sqlName();
    synchronized (lock(name)) {
      publishThenReport(served);
    }
    log.info(
        "Onboarded table {} at snapshot {}: {} data files, {} rows, {} bytes",
        name,
        served.snapshotId(),
        served.dataFiles(),
        served.records(),
        served.dataBytes());
    scheduleSegments(served);
    return served;
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
    ServedTable next = sync(current.config(), table, spec, kept);
    synchronized (lock(sqlName)) {
      publishThenReport(next);
    }
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

  private void scheduleSegments(ServedTable served) {
    for (DataFileInfo file : served.snapshot().dataFiles()) {
      if (served.segments().get(file.path()) instanceof SegmentState.Pending) {
        scheduler.schedule(
            file,
            served.segmentSpec(),
            served.formatVersion(),
            (done, state) -> segmentDone(served.sqlName(), done, state));
      }
    }
  }

  private void segmentDone(String sqlName, DataFileInfo file, SegmentState state) {
    update(
        sqlName,
        current ->
            current.segments().containsKey(file.path())
                    && current.segments().get(file.path()) instanceof SegmentState.Pending
                ? current.withSegment(file.path(), state)
                : current);
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

  private ServedTable sync(
      TableConfig config, Table table, SegmentSpec spec, Map<String, SegmentState> kept)
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
    for (DataFileInfo file : snapshot.dataFiles()) {
      SegmentState previous = kept.get(file.path());
      segments.put(
          file.path(), previous instanceof SegmentState.Ready ? previous : SegmentState.PENDING);
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
