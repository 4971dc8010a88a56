package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.BenchTopology;
import io.shelfmark.cli.bench.ColdStart;
import io.shelfmark.cli.bench.baseline.DuckDbBaseline;
import io.shelfmark.cli.bench.bound.LowerBoundCalculator;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.BenchCharts;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.BenchSettings;
import io.shelfmark.cli.bench.report.DuckDbRecord;
import io.shelfmark.cli.bench.report.HopRecord;
import io.shelfmark.cli.bench.report.HopTargets;
import io.shelfmark.cli.bench.report.MachineInfo;
import io.shelfmark.cli.bench.report.MarkdownReport;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.bench.report.ReportJson;
import io.shelfmark.cli.bench.report.TargetCheck;
import io.shelfmark.cli.bench.report.Targets;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One whole {@code shelfmark bench} run, in order: the lake behind the latency proxy, the table
 * (generated or reused), the lower bounds, the DuckDB baseline, the engine (build, cold and hot
 * runs per mode, QPS sweeps), the targets, and the three outputs ({@code bench.json}, {@code
 * bench.md}, charts).
 */
public final class BenchRun {
  public static final String JSON_FILE = "bench.json";
  public static final String MARKDOWN_FILE = "bench.md";

  private final BenchOptions options;
  private final String command;
  private final PrintStream out;
  private final boolean progress;

  /**
   * @param command the command line to record
   * @param out where steps are reported
   * @param progress whether to draw progress lines on standard error
   */
  public BenchRun(BenchOptions options, String command, PrintStream out, boolean progress) {
    this.options = requireNonNull(options, "options is null");
    this.command = requireNonNull(command, "command is null");
    this.out = requireNonNull(out, "out is null");
    this.progress = progress;
  }

  /** Runs everything and writes the outputs; returns the report. */
  public BenchReport run() throws Exception {
    try (DataDirLock lock = DataDirLock.acquire(options.dataDir())) {
      return runLocked();
    }
  }

  private BenchReport runLocked() throws Exception {
    Files.createDirectories(options.outDir());
    MachineInfo machine = MachineInfo.current(MachineProbe.cpuModel());
    out.printf(
        Locale.ROOT,
        "Shelfmark bench: %,d rows, %d ms per S3 request, modes %s, queries %s -> %s%n",
        options.rows(),
        options.latency().toMillis(),
        options.modes(),
        names(options.queries()),
        options.outDir().toAbsolutePath());
    try (ProxiedLake lake =
        ProxiedLake.start(options.lakeDir(), options.latency(), options.bandwidth())) {
      out.println("  lake: " + lake.lake().directory() + ", S3 through " + lake.proxy());
      BenchTable table = BenchTable.prepare(lake, options, !progress);
      out.printf(
          Locale.ROOT,
          "  table %s (writer %s, created by %s): %,d rows in %,d files, %,d bytes%s%n",
          table.figures().name(),
          table.figures().writer(),
          table.figures().createdBy(),
          table.figures().rows(),
          table.figures().dataFiles(),
          table.figures().dataBytes(),
          table.figures().reused() ? " (reused)" : "");
      List<QueryBound> bounds = bounds(table.files());
      List<DuckDbRecord> duckDb =
          DuckDbBaseline.run(
              options.queries(),
              table.files(),
              options.duckDbRuns(),
              r ->
                  out.printf(
                      Locale.ROOT,
                      "  DuckDB %s: cold %.1f ms, hot median %.1f ms, p95 %.1f ms%n",
                      r.query(),
                      r.coldMs(),
                      r.hot().medianMs(),
                      r.hot().p95Ms()));
      EngineBench allInOne = new EngineBench(options, lake, out);
      EngineResults engine = allInOne.run(bounds, duckDb);
      List<HopRecord> hops = List.of();
      if (options.cluster()) {
        ClusterBench cluster =
            new ClusterBench(
                options,
                lake,
                allInOne,
                ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE),
                out,
                !progress);
        cluster.run(bounds, duckDb, engine.queries(), allInOne.views());
        hops = cluster.hops();
        engine = withCluster(engine, cluster);
      }
      BenchReport report = report(machine, table, bounds, duckDb, engine, hops);
      write(report);
      return report;
    }
  }

  private List<QueryBound> bounds(List<Path> files) throws IOException {
    List<QueryBound> bounds = new ArrayList<>();
    ExecutorService io = Executors.newVirtualThreadPerTaskExecutor();
    try (ObjectStore local = ObjectStores.local();
        DuckDbOracle duckDb = DuckDbOracle.open()) {
      LowerBoundCalculator calculator = new LowerBoundCalculator(local, io, duckDb);
      for (BenchQuery query : options.queries()) {
        QueryBound bound = calculator.compute(query, files);
        bounds.add(bound);
        out.printf(
            Locale.ROOT,
            "  lower bound %s: %,d matching rows in %,d files, %,d bytes in %,d pages (+%,d"
                + " dictionaries) of %s; a scan engine reads %,d bytes%n",
            bound.query(),
            bound.matchingRows(),
            bound.filesWithMatches(),
            bound.lowerBoundBytes(),
            bound.dataPages(),
            bound.dictionaryPages(),
            bound.neededColumns().isEmpty() ? "no column" : bound.neededColumns(),
            bound.scanBytes());
      }
    } finally {
      io.shutdownNow();
    }
    return List.copyOf(bounds);
  }

  /** The all-in-one node's results with the cluster's records and notes after its own. */
  private static EngineResults withCluster(EngineResults engine, ClusterBench cluster) {
    List<QueryRecord> queries = new ArrayList<>(engine.queries());
    queries.addAll(cluster.records());
    List<String> notes = new ArrayList<>(engine.notes());
    notes.addAll(cluster.notes());
    return new EngineResults(engine.build(), queries, engine.sweeps(), notes, engine.completed());
  }

  private BenchReport report(
      MachineInfo machine,
      BenchTable table,
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb,
      EngineResults engine,
      List<HopRecord> hops) {
    // The targets are the all-in-one node's; the cluster's records have the hop's target.
    List<QueryRecord> allInOne = engine.queries().stream().filter(QueryRecord::allInOne).toList();
    List<TargetCheck> targets = new ArrayList<>();
    if (options.allInOne()) {
      targets.addAll(
          Targets.evaluate(
              allInOne,
              bounds,
              duckDb,
              engine.sweeps(),
              options.rows(),
              machine.maxHeapBytes(),
              engine.completed()));
    }
    targets.addAll(HopTargets.evaluate(hops));
    List<String> notes = new ArrayList<>(engine.notes());
    return new BenchReport(
        BenchReport.SCHEMA_VERSION,
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        command,
        machine,
        Versions.current(),
        settings(),
        table.figures(),
        engine.build(),
        bounds,
        engine.queries(),
        duckDb,
        engine.sweeps(),
        targets,
        notes,
        hops);
  }

  private BenchSettings settings() {
    List<String> modes = new ArrayList<>();
    for (BenchMode mode : options.modes()) {
      modes.add(mode.id());
    }
    return new BenchSettings(
        options.rows(),
        options.seed(),
        options.latency().toMillis(),
        options.bandwidth().isPresent() ? options.bandwidth().getAsLong() : null,
        modes,
        names(options.queries()),
        options.hotRuns(),
        options.duckDbRuns(),
        options.qpsSweep(),
        options.cold() == ColdStart.PROCESS,
        options.topologies().stream().map(BenchTopology::id).toList(),
        options.cluster() ? options.servers() : null,
        options.writer().id());
  }

  private void write(BenchReport report) throws IOException {
    Path dir = options.outDir();
    ReportJson.write(report, dir.resolve(JSON_FILE));
    List<String> charts = BenchCharts.write(report, dir);
    Files.writeString(dir.resolve(MARKDOWN_FILE), MarkdownReport.render(report, charts));
    out.println("  wrote " + dir.resolve(JSON_FILE) + ", " + MARKDOWN_FILE + ", " + charts);
    for (TargetCheck target : report.targets()) {
      if (!target.status().equals(TargetCheck.NOT_MEASURED)) {
        out.println("  target " + target.id() + ": " + target.detail());
      }
    }
  }

  private static List<String> names(List<BenchQuery> queries) {
    List<String> names = new ArrayList<>();
    for (BenchQuery query : queries) {
      names.add(query.name());
    }
    return names;
  }
}
