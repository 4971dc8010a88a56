package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's tables: onboards a table config against its Iceberg catalog (validating it
 * against the table's schema first) and keeps what the table's current snapshot holds.
 *
 * <p>State is in memory: the durable metadata store arrives with the distributed controller. All
 * catalog reads happen here, at onboarding and sync, never on the query path. Thread safe.
 */
public final class TableRegistry {
  private static final Logger log = LoggerFactory.getLogger(TableRegistry.class);

  private final Map<String, Catalog> catalogs;
  private final OnboardingValidator validator = new OnboardingValidator();
  private final Clock clock;
  private final ConcurrentSkipListMap<String, ServedTable> tables = new ConcurrentSkipListMap<>();

  /**
   * @param catalogs the configured catalogs by name, as table configs refer to them
   */
  public TableRegistry(Map<String, Catalog> catalogs, Clock clock) {
    this.catalogs = Map.copyOf(requireNonNull(catalogs, "catalogs is null"));
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * Loads the table named by {@code config}, checks the config against its schema, reads its
   * current snapshot and starts serving it. Onboarding a table again replaces its config.
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
    ServedTable served = sync(config, table);
    tables.put(served.sqlName(), served);
    log.info(
        "Onboarded table {} at snapshot {}: {} data files, {} rows, {} bytes",
        served.sqlName(),
        served.snapshotId(),
        served.dataFiles(),
        served.records(),
        served.dataBytes());
    return served;
  }

  /** Every served table, sorted by SQL name. */
  public List<ServedTable> tables() {
    return List.copyOf(tables.values());
  }

  /** The served table with that SQL name ({@code namespace.name}). */
  public Optional<ServedTable> table(String sqlName) {
    return Optional.ofNullable(tables.get(sqlName));
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

  private ServedTable sync(TableConfig config, Table table) throws OnboardingException {
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return new ServedTable(config, -1, 0, 0, 0, clock.instant());
    }
    Map<String, String> summary = snapshot.summary();
    Long files = parse(summary.get("total-data-files"));
    Long records = parse(summary.get("total-records"));
    Long bytes = parse(summary.get("total-files-size"));
    if (files == null || records == null || bytes == null) {
      // Writers other than Iceberg's own may omit snapshot totals: count from the manifests once.
      long[] totals = countFromManifests(table, snapshot);
      files = totals[0];
      records = totals[1];
      bytes = totals[2];
    }
    return new ServedTable(config, snapshot.snapshotId(), files, records, bytes, clock.instant());
  }

  private static long[] countFromManifests(Table table, Snapshot snapshot)
      throws OnboardingException {
    long[] totals = new long[3];
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        totals[0]++;
        totals[1] += task.file().recordCount();
        totals[2] += task.file().fileSizeInBytes();
      }
    } catch (java.io.IOException | RuntimeException e) {
      throw new OnboardingException(
          "Cannot read the manifests of " + table.name() + " at snapshot " + snapshot.snapshotId(),
          e);
    }
    return totals;
  }

  private static Long parse(String value) {
    if (value == null) {
      return null;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
