package io.shelfmark.cli.quickstart;

import static java.util.Objects.requireNonNull;

import io.shelfmark.broker.table.TableDirectory;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Shows the controller's served tables to the broker in one JVM. Segment counts are zero: this
 * version builds no segments yet, and the table status says exactly that.
 */
final class RegistryTableDirectory implements TableDirectory {
  private final TableRegistry registry;

  RegistryTableDirectory(TableRegistry registry) {
    this.registry = requireNonNull(registry, "registry is null");
  }

  @Override
  public List<TableStatus> tables() {
    List<TableStatus> statuses = new ArrayList<>();
    for (ServedTable table : registry.tables()) {
      statuses.add(
          new TableStatus(
              table.sqlName(),
              TableStatus.SERVING,
              table.snapshotId(),
              table.dataFiles(),
              table.records(),
              table.dataBytes(),
              0,
              0,
              table.dataFiles(),
              0,
              0,
              List.of()));
    }
    return statuses;
  }
}
