package io.shelfmark.cli.node;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.table.TableAdmin;
import io.shelfmark.broker.table.TableAdminException;
import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableSchema;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.cli.node.warmup.NodeWarmup;
import io.shelfmark.config.ConfigException;
import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.config.Violation;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.server.local.LocalServer;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/** The controller's tables as the HTTP API shows and onboards them. */
public final class RegistryTables implements TableDirectory, TableAdmin {
  private final TableRegistry registry;
  private final Supplier<NodeWarmup.State> warmup;
  private final Function<String, LocalServer.SegmentHealth> segmentHealth;

  /**
   * @param warmup where the node's warm-up is, reported with every table
   * @param segmentHealth how the server fared with each table's ready segments (repaired, unusable)
   */
  public RegistryTables(
      TableRegistry registry,
      Supplier<NodeWarmup.State> warmup,
      Function<String, LocalServer.SegmentHealth> segmentHealth) {
    this.registry = requireNonNull(registry, "registry is null");
    this.warmup = requireNonNull(warmup, "warmup is null");
    this.segmentHealth = requireNonNull(segmentHealth, "segmentHealth is null");
  }

  @Override
  public List<TableStatus> tables() {
    List<TableStatus> statuses = new ArrayList<>();
    for (ServedTable table : registry.tables()) {
      statuses.add(status(table));
    }
    return statuses;
  }

  @Override
  public Optional<TableStatus> table(String name) {
    return registry.table(name).map(this::status);
  }

  @Override
  public Optional<TableSchema> schema(String name) {
    return registry
        .table(name)
        .map(
            table ->
                new TableSchema(
                    table.sqlName(),
                    IcebergSchemas.toBoundTable(TableName.parse(table.sqlName()), table.schema())
                        .columns(),
                    table.config().timeColumn()));
  }

  @Override
  public TableStatus onboard(String tableConfig) throws TableAdminException {
    TableConfig config;
    try {
      config =
          ConfigLoader.parseTable(
              tableConfig,
              tableConfig.stripLeading().startsWith("{") ? ConfigFormat.JSON : ConfigFormat.YAML,
              "table config");
    } catch (ConfigException e) {
      throw new TableAdminException(
          "Cannot onboard the table: its config is invalid", messages(e.violations()));
    }
    try {
      return status(registry.onboard(config));
    } catch (OnboardingException e) {
      throw new TableAdminException(
          e.violations().isEmpty()
              ? e.getMessage()
              : "Cannot onboard table " + config.identity().qualifiedName(),
          messages(e.violations()));
    }
  }

  @Override
  public boolean drop(String name) throws TableAdminException {
    try {
      return registry.drop(name);
    } catch (IOException e) {
      throw new TableAdminException(
          "Cannot drop table " + name + ": cannot change the cluster state: " + e.getMessage(),
          List.of());
    }
  }

  private static List<String> messages(List<Violation> violations) {
    List<String> messages = new ArrayList<>();
    for (Violation violation : violations) {
      messages.add(violation.message());
    }
    return messages;
  }

  /**
   * The HTTP view of a served table: the controller's view of its segments, corrected by the
   * server's — a segment built but unusable on the server (damaged in the segment store, say)
   * counts as failed, with its reason, not as ready.
   */
  public TableStatus status(ServedTable table) {
    LocalServer.SegmentHealth health = segmentHealth.apply(table.sqlName());
    List<TableStatus.SegmentFailure> failures = new ArrayList<>();
    for (SegmentState.Failed failed : table.failures()) {
      if (failures.size() == TableStatus.MAX_FAILURES_LISTED) {
        break;
      }
      failures.add(
          new TableStatus.SegmentFailure(failed.failure().dataFile(), failed.failure().message()));
    }
    for (Map.Entry<String, String> unusable : new TreeMap<>(health.unusable()).entrySet()) {
      if (failures.size() == TableStatus.MAX_FAILURES_LISTED) {
        break;
      }
      failures.add(new TableStatus.SegmentFailure(unusable.getKey(), unusable.getValue()));
    }
    int unusable = health.unusable().size();
    return new TableStatus(
        table.sqlName(),
        table.state(),
        table.snapshotId(),
        table.snapshot().committedAt().map(Instant::toEpochMilli).orElse(-1L),
        table.dataFiles(),
        table.records(),
        table.dataBytes(),
        table.recordsIndexed(),
        Math.max(0, table.segmentsReady() - unusable),
        table.segmentsPending(),
        table.segmentsFailed() + unusable,
        health.repaired(),
        table.indexBytes(),
        warmup.get().label(),
        failures);
  }
}
