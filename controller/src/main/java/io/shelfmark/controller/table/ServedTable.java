package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.table.TableConfig;
import java.time.Instant;

/**
 * A table the controller serves, as of its last sync with the catalog.
 *
 * @param config the table config it was onboarded with
 * @param snapshotId the Iceberg snapshot served; -1 when the table has no snapshot yet
 * @param dataFiles live data files in that snapshot
 * @param records rows in those data files, before deletes
 * @param dataBytes bytes of those data files
 * @param syncedAt when the snapshot was read from the catalog
 */
public record ServedTable(
    TableConfig config,
    long snapshotId,
    long dataFiles,
    long records,
    long dataBytes,
    Instant syncedAt) {
  public ServedTable {
    requireNonNull(config, "config is null");
    requireNonNull(syncedAt, "syncedAt is null");
  }

  /** The name queries use, e.g. {@code obs.metrics}. */
  public String sqlName() {
    return config.identity().qualifiedName();
  }
}
