package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.ColdStart;
import io.shelfmark.cli.bench.baseline.DuckDbBaseline;
import io.shelfmark.cli.bench.bound.LowerBoundCalculator;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.BenchCharts;
import io.shelfmark.cli.bench.report.BenchReport;
import io.shelfmark.cli.bench.report.BenchSettings;
import io.shelfmark.cli.bench.report.DuckDbRecord;
import io.shelfmark.cli.bench.report.MachineInfo;
import io.shelfmark.cli.bench.report.MarkdownReport;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.ReportJson;
import io.shelfmark.cli.bench.report.TargetCheck;
import io.shelfmark.cli.bench.report.Targets;
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
      BenchTable table = BenchTable.prepare(lake, options.rows(), options.seed(), !progress);
      out.printf(
          Locale.ROOT,
          "  table %s: %,d rows in %,d files, %,d bytes%s%n",
          table.figures().name(),
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
      EngineResults engine = engine(lake, table, bounds, duckDb);
      BenchReport report = report(machine, table, bounds, duckDb, engine);
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

  /** The engine part: build, per-mode cold and hot runs, sweeps. */
  private EngineResults engine(
      ProxiedLake lake, BenchTable table, List<QueryBound> bounds, List<DuckDbRecord> duckDb)
      throws Exception {
    return new EngineBench(options, lake, out).run(bounds, duckDb);
  }

  private BenchReport report(
      MachineInfo machine,
      BenchTable table,
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb,
      EngineResults engine) {
    List<TargetCheck> targets =
        Targets.evaluate(
            engine.queries(),
            bounds,
            duckDb,
            engine.sweeps(),
            options.rows(),
            machine.maxHeapBytes(),
            engine.completed());
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
        notes);
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
        options.cold() == ColdStart.PROCESS);
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
