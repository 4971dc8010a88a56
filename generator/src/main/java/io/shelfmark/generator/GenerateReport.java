package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Locale;
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
