package io.shelfmark.cli.segments;

import io.shelfmark.indexbuilder.build.IndexingReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the star-trees cost, from warm passes built with and without them in one process ({@code
 * segments bench --alternate-star-trees}): each way's median rows per CPU-second, the difference as
 * CPU per row, and the trees' own CPU (the building threads' timers) per row. The difference also
 * holds decoding the columns only the trees read; the timers hold only feeding and building.
 */
final class StarTreeCost {
  private final List<Double> withTrees = new ArrayList<>();
  private final List<Double> withoutTrees = new ArrayList<>();
  private final List<Double> treeMicrosPerRow = new ArrayList<>();
  private final List<Double> loads = new ArrayList<>();

  void add(boolean trees, IndexingReport report, MachineUse used) {
    double cpuSeconds = BenchReport.seconds(used.processCpu());
    if (cpuSeconds <= 0 || report.rowsBuilt() == 0) {
      return;
    }
    double rate = report.rowsBuilt() / cpuSeconds;
    loads.add(used.loadAverage());
    if (trees) {
      withTrees.add(rate);
      treeMicrosPerRow.add(
          1e6 * BenchReport.seconds(report.timings().starTreeCpu()) / report.rowsBuilt());
    } else {
      withoutTrees.add(rate);
    }
  }

  void print(PrintWriter out) {
    if (withTrees.isEmpty() || withoutTrees.isEmpty()) {
      out.println("star-tree cost: no warm pass each way (use --passes 2 or more)");
      return;
    }
    double with = median(withTrees);
    double without = median(withoutTrees);
    out.println();
    out.printf(
        Locale.ROOT,
        "star-tree cost over %d warm passes each way (load average %.2f to %.2f):%n",
        withTrees.size(),
        loads.stream().mapToDouble(Double::doubleValue).min().orElse(0),
        loads.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    out.printf(
        Locale.ROOT,
        "  %-22s %,.0f (each pass: %s)%n",
        "withTreesRowsPerCpuS",
        with,
        list(withTrees));
    out.printf(
        Locale.ROOT,
        "  %-22s %,.0f (each pass: %s)%n",
        "withoutRowsPerCpuS",
        without,
        list(withoutTrees));
    out.printf(
        Locale.ROOT,
        "  %-22s %.3f µs a row (difference of the medians: %.1f%% of the build with trees)%n",
        "treeCpuByDifference",
        1e6 * (1 / with - 1 / without),
        100 * (1 - with / without));
    out.printf(
        Locale.ROOT,
        "  %-22s %.3f µs a row (the trees' timers, median; each pass: %s)%n",
        "treeCpuByTimers",
        median(treeMicrosPerRow),
        list(treeMicrosPerRow));
  }

  private static String list(List<Double> values) {
    List<String> parts = new ArrayList<>();
    for (double value : values) {
      parts.add(
          value >= 1000
              ? String.format(Locale.ROOT, "%,.0f", value)
              : String.format(Locale.ROOT, "%.3f", value));
    }
    return String.join(" ", parts);
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }
}
