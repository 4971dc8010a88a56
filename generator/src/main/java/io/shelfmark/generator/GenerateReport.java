package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * What a {@link MetricsTableGenerator} run did.
 *
 * @param table the table written or reused
 * @param reused true when the table already held this data and nothing was written
 * @param rows rows in the table
 * @param files data files in the table
 * @param bytes total size of the data files
 * @param elapsed time the run took (for a reused table: the time to check it)
 */
public record GenerateReport(
    TableIdentifier table, boolean reused, long rows, long files, long bytes, Duration elapsed) {
  public GenerateReport {
    requireNonNull(table, "table is null");
    requireNonNull(elapsed, "elapsed is null");
    if (rows < 0 || files < 0 || bytes < 0) {
      throw new IllegalArgumentException(
          "Cannot report generation: negative count (rows="
              + rows
              + ", files="
              + files
              + ", bytes="
              + bytes
              + ")");
    }
  }

  /**
   * The report of a table found already holding the rows asked for: its counts from the current
   * snapshot's summary (zeros for a table without one).
   */
  public static GenerateReport reused(TableIdentifier id, Table table, Duration elapsed) {
    Snapshot snapshot = table.currentSnapshot();
    Map<String, String> summary = snapshot == null ? Map.of() : snapshot.summary();
    return new GenerateReport(
        id,
        true,
        Long.parseLong(summary.getOrDefault(SnapshotSummary.TOTAL_RECORDS_PROP, "0")),
        Long.parseLong(summary.getOrDefault(SnapshotSummary.TOTAL_DATA_FILES_PROP, "0")),
        Long.parseLong(summary.getOrDefault(SnapshotSummary.TOTAL_FILE_SIZE_PROP, "0")),
        elapsed);
  }

  /** Elapsed time in seconds. */
  public double seconds() {
    return elapsed.toNanos() / 1e9;
  }

  /** Rows written per second; 0 for a reused table, which wrote none. */
  public double rowsPerSecond() {
    if (reused || elapsed.isZero()) {
      return 0;
    }
    return rows / seconds();
  }

  /** One line for a person: what happened, and how fast. */
  public String summary() {
    if (reused) {
      return String.format(
          Locale.ROOT,
          "Reused table %s: it already holds %,d rows in %,d files (%,d bytes) from the same rows"
              + " and seed",
          table,
          rows,
          files,
          bytes);
    }
    return String.format(
        Locale.ROOT,
        "Generated table %s: %,d rows in %,d files (%,d bytes) in %.1f s (%,.0f rows/s)",
        table,
        rows,
        files,
        bytes,
        seconds(),
        rowsPerSecond());
  }
}
