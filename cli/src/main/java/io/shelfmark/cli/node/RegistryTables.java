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
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The controller's tables as the HTTP API shows and onboards them. */
public final class RegistryTables implements TableDirectory, TableAdmin {
  private final TableRegistry registry;
  private final Supplier<NodeWarmup.State> warmup;

  /**
   * @param warmup where the node's warm-up is, reported with every table
   */
  public RegistryTables(TableRegistry registry, Supplier<NodeWarmup.State> warmup) {
    this.registry = requireNonNull(registry, "registry is null");
    this.warmup = requireNonNull(warmup, "warmup is null");
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

  private static List<String> messages(List<Violation> violations) {
    List<String> messages = new ArrayList<>();
    for (Violation violation : violations) {
      messages.add(violation.message());
    }
    return messages;
  }

  /** The HTTP view of a served table. */
  public TableStatus status(ServedTable table) {
    List<TableStatus.SegmentFailure> failures = new ArrayList<>();
    for (SegmentState.Failed failed : table.failures()) {
      if (failures.size() == TableStatus.MAX_FAILURES_LISTED) {
        break;
      }
      failures.add(
          new TableStatus.SegmentFailure(failed.failure().dataFile(), failed.failure().message()));
    }
    return new TableStatus(
        table.sqlName(),
        table.state(),
        table.snapshotId(),
        table.dataFiles(),
        table.records(),
        table.dataBytes(),
        table.recordsIndexed(),
        table.segmentsReady(),
        table.segmentsPending(),
        table.segmentsFailed(),
        table.indexBytes(),
        warmup.get().label(),
        failures);
  }
}
