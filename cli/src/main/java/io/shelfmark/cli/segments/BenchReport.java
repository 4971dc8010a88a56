package io.shelfmark.cli.segments;

import static java.util.Objects.requireNonNull;

import io.shelfmark.indexbuilder.build.BuildFailure;
import io.shelfmark.indexbuilder.build.BuildTimings;
import io.shelfmark.indexbuilder.build.IndexingReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The printed figures of {@code shelfmark segments bench}, one per line as {@code name value}, so
 * that they can be read by people and by tests alike.
 */
record BenchReport(
    String table,
    long rows,
    long seed,
    String readFrom,
    int passes,
    IndexingReport report,
    MachineUse used,
    long heapMaxBytes,
    long heapPeakBytes) {
  /** The ratio the builder is held to: segment bytes at most this share of Parquet bytes. */
  static final double RATIO_TARGET = 0.25;

  /** The speed it is held to on a 2-core machine. */
  static final long ROWS_PER_SECOND_TARGET = 1_000_000;

  BenchReport {
    requireNonNull(table, "table is null");
    requireNonNull(readFrom, "readFrom is null");
    requireNonNull(report, "report is null");
    requireNonNull(used, "used is null");
  }

  /** One line per build pass, so the cold and warm passes can be compared. */
  static void printPass(
      PrintWriter out, int pass, int passes, String label, IndexingReport report, MachineUse used) {
    double cpuSeconds = seconds(used.processCpu());
    out.printf(
        Locale.ROOT,
        "pass %d of %d%s: %.2f s, %,.0f rows/s, %.2f CPU-s (%.2f of them JIT compilation),"
            + " %,.0f rows per CPU-second, star-trees %.2f CPU-s, GC %.2f s, load %.2f%n",
        pass,
        passes,
        label,
        report.wallTime().toNanos() / 1e9,
        report.rowsPerSecond(),
        cpuSeconds,
        seconds(used.compilation()),
        cpuSeconds <= 0 ? 0 : report.rowsBuilt() / cpuSeconds,
        seconds(report.timings().starTreeCpu()),
        seconds(used.garbageCollection()),
        used.loadAverage());
  }

  void print(PrintWriter out) {
    long dataBytes = report.dataBytes();
    long indexBytes = report.segmentBytes();
    double ratio = dataBytes == 0 ? 0 : (double) indexBytes / dataBytes;
    double seconds = report.wallTime().toNanos() / 1e9;
    out.println();
    out.printf(
        Locale.ROOT,
        "Segments of %s (%,d rows, seed %d), read from %s, pass %d of %d%s%n",
        table,
        rows,
        seed,
        readFrom,
        passes,
        passes,
        passes > 1 ? " (warm)" : " (cold: includes JIT compilation)");
    line(out, "dataFiles", "%,d", report.outcomes().size());
    line(out, "rows", "%,d", report.rowsBuilt());
    line(out, "dataBytes", "%,d", dataBytes);
    line(out, "indexBytes", "%,d", indexBytes);
    out.printf(
        Locale.ROOT,
        "  %-22s %.2f%% (target at most %.0f%%: %s)%n",
        "ratio",
        100 * ratio,
        100 * RATIO_TARGET,
        ratio <= RATIO_TARGET ? "met" : "missed");
    line(out, "buildSeconds", "%.2f", seconds);
    out.printf(
        Locale.ROOT,
        "  %-22s %,.0f (target at least %,d: %s)%n",
        "rowsPerSecond",
        report.rowsPerSecond(),
        ROWS_PER_SECOND_TARGET,
        report.rowsPerSecond() >= ROWS_PER_SECOND_TARGET ? "met" : "missed");
    line(out, "threads", "%d", report.threads());
    double cpuSeconds = seconds(used.processCpu());
    line(out, "processCpuSeconds", "%.2f", cpuSeconds);
    line(out, "rowsPerCpuSecond", "%,.0f", cpuSeconds <= 0 ? 0 : report.rowsBuilt() / cpuSeconds);
    double treeSeconds = seconds(report.timings().starTreeCpu());
    out.printf(
        Locale.ROOT,
        "  %-22s %.2f (%.3f µs a row, %.1f%% of the process's CPU; feeding and building, not"
            + " decoding their columns)%n",
        "starTreeCpuSeconds",
        treeSeconds,
        1e6 * treeSeconds / Math.max(1, report.rowsBuilt()),
        cpuSeconds <= 0 ? 0 : 100 * treeSeconds / cpuSeconds);
    line(out, "jitSeconds", "%.2f", seconds(used.compilation()));
    line(out, "gcSeconds", "%.2f", seconds(used.garbageCollection()));
    line(out, "loadAverage", "%.2f", used.loadAverage());
    line(out, "heapMaxMiB", "%,d", heapMaxBytes >> 20);
    line(out, "heapPeakMiB", "%,d", heapPeakBytes >> 20);
    out.println("  bytes by part kind (all segments):");
    long rowsBuilt = Math.max(1, report.rowsBuilt());
    for (Map.Entry<String, Long> part : report.bytesByPart().entrySet()) {
      out.printf(
          Locale.ROOT,
          "    %-20s %,15d  %5.1f%%  %6.3f bytes/row%n",
          part.getKey(),
          part.getValue(),
          indexBytes == 0 ? 0 : 100.0 * part.getValue() / indexBytes,
          (double) part.getValue() / rowsBuilt);
    }
    BuildTimings timings = report.timings();
    out.printf(
        Locale.ROOT,
        "  time by phase, summed over files (s): metadata %.2f, decode %.2f, feed %.2f,"
            + " seal %.2f, upload %.2f%n",
        seconds(timings.metadata()),
        seconds(timings.decode()),
        seconds(timings.feed()),
        seconds(timings.seal()),
        seconds(timings.upload()));
    line(out, "failedFiles", "%d", report.failed().size());
    for (BuildFailure failure : report.failed()) {
      out.println("    " + failure.message());
    }
  }

  private static void line(PrintWriter out, String name, String format, Object value) {
    out.printf(Locale.ROOT, "  %-22s " + format + "%n", name, value);
  }

  static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}
