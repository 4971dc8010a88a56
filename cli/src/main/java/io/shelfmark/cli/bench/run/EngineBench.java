package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.ColdStart;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.load.LoadGenerator;
import io.shelfmark.cli.bench.load.QpsSweeper;
import io.shelfmark.cli.bench.report.BuildFigures;
import io.shelfmark.cli.bench.report.DuckDbRecord;
import io.shelfmark.cli.bench.report.LatencySummary;
import io.shelfmark.cli.bench.report.QpsSweep;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.cli.node.AllInOne;
import io.shelfmark.controller.table.OnboardingException;
import io.shelfmark.controller.table.ServedTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The engine part of a run: the index build, then per mode the cold and hot runs of each query,
 * then the QPS sweeps (mode pinned, or the first mode measured when pinned is not).
 *
 * <p>Cold, as measured here with {@code --cold process} (the default): per mode and query a fresh
 * child JVM ({@link ColdNodeProcess}: same java binary, class path, heap and GC options as this
 * JVM) running an all-in-one node configured as {@link BenchNodes#config} says, its node directory
 * emptied first, except that in the pinned modes the segment files downloaded by the pin step stay
 * on disk ("segments already pinned, page cache empty"). Classes, JIT, caches and segment readers
 * all start cold; the child's S3 requests cross the proxy in this JVM, so the proxy counts them.
 * The cold time is the client-observed latency of the first query once every segment is ready and
 * the node has made no storage request for 200 ms: JVM start-up and onboarding are not in it. With
 * {@code --cold in-jvm} the fresh node runs in this JVM instead (new caches and segment readers,
 * warm JIT). The pin step, the build and the hot runs use nodes in this JVM either way.
 */
final class EngineBench {
  private static final Duration QUIET_WINDOW = Duration.ofMillis(200);
  private static final Duration QUIET_TIMEOUT = Duration.ofSeconds(10);

  private final BenchOptions options;
  private final ProxiedLake lake;
  private final PrintStream out;
  private final BenchNodes nodes;
  private final List<String> notes = new ArrayList<>();
  private final Map<String, TopologyView> views = new HashMap<>();

  EngineBench(BenchOptions options, ProxiedLake lake, PrintStream out) throws IOException {
    this.options = requireNonNull(options, "options is null");
    this.lake = requireNonNull(lake, "lake is null");
    this.out = requireNonNull(out, "out is null");
    this.nodes = new BenchNodes(lake);
  }

  EngineResults run(List<QueryBound> bounds, List<DuckDbRecord> duckDb) throws Exception {
    notes.add(coldNote(options.cold()));
    if (options.cold() == ColdStart.PROCESS) {
      BenchNodes.deleteTree(options.coldDir()); // only this run's configs and logs stay
    }
    notes.add(
        "Hot: one node per mode, each query run "
            + options.hotRuns()
            + " times in a row; median and p95 of runs 2..N; storage figures of the last run.");
    BuildFigures build = build();
    if (!options.allInOne()) {
      // The cluster alone: its servers pin the segments this build left in the segment store.
      return new EngineResults(build, List.of(), List.of(), notes, true);
    }
    List<QueryRecord> records = new ArrayList<>();
    List<QpsSweep> sweeps = new ArrayList<>();
    BenchMode sweepMode =
        options.modes().contains(BenchMode.PINNED) ? BenchMode.PINNED : options.modes().get(0);
    for (BenchMode mode : options.modes()) {
      Path nodeDir = options.nodeDir(mode);
      BenchNodes.deleteTree(nodeDir);
      if (mode.pinned()) {
        pin(mode, nodeDir);
      }
      Map<String, QueryObservation> cold = new HashMap<>();
      Map<String, QueryObservation> second = new HashMap<>();
      for (BenchQuery query : options.queries()) {
        BenchNodes.deleteTree(nodeDir.resolve("cache"));
        if (!mode.pinned()) {
          BenchNodes.deleteTree(nodeDir);
        }
        QueryObservation[] runs = cold(mode, nodeDir, query);
        QueryObservation observation = runs[0];
        cold.put(query.name(), observation);
        second.put(query.name(), runs[1]);
        out.printf(
            Locale.ROOT,
            "  %s %s cold: %.1f ms, %,d bytes in %d requests (%d rounds)%s; second execution: %,d bytes in %d requests, cache hits / misses %d / %d%n",
            query.name(),
            mode,
            observation.latencyNanos() / 1e6,
            observation.io().storageBytes(),
            observation.io().storageRequests(),
            observation.io().sequentialRounds(),
            observation.error() == null ? "" : ", error: " + observation.error(),
            runs[1].io().storageBytes(),
            runs[1].io().storageRequests(),
            runs[1].io().cacheHits(),
            runs[1].io().cacheMisses());
      }
      try (AllInOne node = nodes.start(mode, nodeDir);
          FlightSqlProbe flight = new FlightSqlProbe("127.0.0.1", node.flightPort())) {
        QueryProbe probe = new QueryProbe(node.url(), lake);
        for (BenchQuery query : options.queries()) {
          records.add(
              hot(query, mode, probe, cold.get(query.name()), bounds, duckDb)
                  .withFlightSql(flightHot(query, mode, flight))
                  .withSecondIo(second.get(query.name()).io()));
          if (options.clusterModes().contains(mode)) {
            views.put(
                TopologyView.key(query, mode),
                TopologyView.observe(probe.client(), query, mode, options.hotRuns(), out));
          }
        }
        if (mode == sweepMode) {
          // One mode: a million rows over both protocols is the longest part of a run.
          notes.addAll(
              new LargeResultBench(Math.clamp(options.hotRuns(), 2, 5), out)
                  .run(mode.id(), probe, flight));
        }
        if (options.qpsSweep() && mode == sweepMode) {
          sweeps.addAll(sweep(mode, probe));
        }
      }
    }
    return new EngineResults(build, records, sweeps, notes, true);
  }

  /**
   * The all-in-one node's answers and EXPLAIN ANALYZE times, by {@link TopologyView#key}, for the
   * modes the cluster also runs (empty without {@code --topology cluster}).
   */
  Map<String, TopologyView> views() {
    return Map.copyOf(views);
  }

  /**
   * The cold run of {@code query}: a fresh node started, its first query observed, then the same
   * query again on that node (its second execution: in page-cache mode, what the first left to
   * fetch), stopped. Returns both observations.
   */
  private QueryObservation[] cold(BenchMode mode, Path nodeDir, BenchQuery query)
      throws IOException, OnboardingException, InterruptedException {
    if (options.cold() == ColdStart.IN_JVM) {
      try (AllInOne node = nodes.start(mode, nodeDir)) {
        return firstQueries(node.url(), mode, query);
      }
    }
    String name = mode.id().replace('+', '-') + "-" + query.name();
    try (ColdNodeProcess node = nodes.startProcess(mode, nodeDir, options.coldDir(), name)) {
      return firstQueries(node.url(), mode, query);
    }
  }

  /**
   * The node's first query, once the proxy is quiet: "every segment ready" is reported before the
   * server has finished opening the last ones, and a slow (cold) node may still be at it.
   */
  private QueryObservation[] firstQueries(String url, BenchMode mode, BenchQuery query)
      throws InterruptedException {
    QueryProbe probe = new QueryProbe(url, lake);
    // The hot runs reuse one open connection, and so does the cold run: otherwise its time holds
    // the client's connection set-up (about 8 ms of a 24 ms cold Q1), which is not the node's.
    probe.connect();
    if (!lake.awaitQuiet(QUIET_WINDOW, QUIET_TIMEOUT)) {
      notes.add(
          query.name()
              + " "
              + mode
              + " cold: the node still made storage requests "
              + QUIET_TIMEOUT.toSeconds()
              + " s after reporting ready; its cold figures may include them.");
    }
    QueryObservation first = probe.run(query.sql());
    // Quiet again before the second execution, as before the first: prefetches the first started
    // and the caches' fills settle, so the second counts only what it fetches itself.
    lake.awaitQuiet(QUIET_WINDOW, QUIET_TIMEOUT);
    return new QueryObservation[] {first, probe.run(query.sql())};
  }

  private static String coldNote(ColdStart cold) {
    String fresh =
        cold == ColdStart.PROCESS
            ? "Cold: per mode and query a fresh child JVM (same java, class path, heap and GC"
                + " options as the benchmark) running an all-in-one node with its default warm-up"
                + " (server.warmup: queries shaped after the table's indexes, not the benchmark's,"
                + " then every cache emptied), so its caches start empty and its JIT has seen the"
                + " query path;"
                + " its storage requests still cross the proxy."
            : "Cold (--cold in-jvm): a fresh all-in-one node in the benchmark JVM (new caches and"
                + " segment readers); the JVM's classes are loaded and its JIT is warm.";
    return fresh
        + " Node directory emptied first, except that pinned modes keep the segment files an"
        + " earlier node downloaded (cold = segments pinned, page cache empty). The time is the"
        + " first query's, client-observed, once every segment is ready and the node has made no"
        + " storage request for 200 ms (start-up not included).";
  }

  /** Rebuilds every segment from scratch (the segment store is emptied) and times it. */
  private BuildFigures build() throws IOException, OnboardingException {
    Path segmentStore = lake.objectDirectory().resolve(LocalLake.BUCKET).resolve("_shelfmark");
    BenchNodes.deleteTree(segmentStore);
    Path nodeDir = options.dataDir().resolve("node-build");
    BenchNodes.deleteTree(nodeDir);
    long start = System.nanoTime();
    try (AllInOne node = nodes.startBuild(nodeDir)) {
      double seconds = (System.nanoTime() - start) / 1e9;
      ServedTable table = BenchNodes.waitReady(node, node.registry().tables().get(0).sqlName());
      BuildFigures build =
          BuildFigures.of(
              seconds,
              table.recordsIndexed(),
              table.segmentsReady(),
              table.segmentsFailed(),
              table.dataBytes(),
              table.indexBytes());
      out.printf(
          Locale.ROOT,
          "  built %,d segments in %.1f s (%,.0f rows/s): %,d index bytes = %.1f%% of %,d data"
              + " bytes%s%n",
          build.segments(),
          build.seconds(),
          build.rowsPerSecond(),
          build.indexBytes(),
          100 * build.indexToDataRatio(),
          build.dataBytes(),
          build.segmentsFailed() == 0 ? "" : " (" + build.segmentsFailed() + " failed)");
      if (build.segmentsFailed() > 0) {
        notes.add(
            build.segmentsFailed()
                + " segments failed to build: "
                + table.failures().stream().limit(3).toList());
      }
      return build;
    } finally {
      BenchNodes.deleteTree(nodeDir);
    }
  }

  /** Downloads the segments of a pinned mode once, so cold runs start with them on disk. */
  private void pin(BenchMode mode, Path nodeDir) throws IOException, OnboardingException {
    try (AllInOne node = nodes.start(mode, nodeDir)) {
      QueryProbe probe = new QueryProbe(node.url(), lake);
      for (BenchQuery query : options.queries()) {
        probe.run(query.sql());
      }
    }
  }

  QueryRecord hot(
      BenchQuery query,
      BenchMode mode,
      QueryProbe probe,
      QueryObservation cold,
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb) {
    long[] times = new long[options.hotRuns()];
    QueryObservation last = null;
    String error = cold == null ? null : cold.error();
    for (int i = 0; i < times.length; i++) {
      last = probe.run(query.sql());
      times[i] = last.latencyNanos();
      if (error == null) {
        error = last.error();
      }
    }
    LatencySummary hot = LatencySummary.ofNanos(times);
    long bound =
        bounds.stream()
            .filter(b -> b.query().equals(query.name()))
            .mapToLong(QueryBound::lowerBoundBytes)
            .findFirst()
            .orElse(0);
    Optional<DuckDbRecord> duck =
        duckDb.stream().filter(d -> d.query().equals(query.name())).findFirst();
    out.printf(
        Locale.ROOT,
        "  %s %s hot: median %.2f ms, p95 %.2f ms, %,d bytes in %d requests (%d rounds), %,d docs%n",
        query.name(),
        mode,
        hot.medianMs(),
        hot.p95Ms(),
        last.io().storageBytes(),
        last.io().storageRequests(),
        last.io().sequentialRounds(),
        last.docsMatched());
    return new QueryRecord(
        query.name(),
        mode.id(),
        cold == null ? null : cold.latencyNanos() / 1e6,
        cold == null ? null : cold.io(),
        hot,
        last.io(),
        last.docsMatched(),
        last.totalDocs(),
        last.segmentsQueried(),
        last.segmentsPruned(),
        last.timeUsedMs(),
        bound,
        bound == 0 ? null : last.io().storageBytes() / (double) bound,
        duck.map(d -> d.hot().medianMs()).orElse(null),
        duck.map(d -> hot.medianMs() / d.hot().medianMs()).orElse(null),
        error,
        null,
        QueryRecord.ALL_IN_ONE,
        null);
  }

  /**
   * The hot runs of {@code query} over Arrow Flight SQL, on the node the HTTP runs just warmed: the
   * same number of runs, run 1 excluded the same way. Null (and a line saying why) when a run
   * fails.
   */
  LatencySummary flightHot(BenchQuery query, BenchMode mode, FlightSqlProbe flight) {
    long[] times = new long[options.hotRuns()];
    try {
      for (int i = 0; i < times.length; i++) {
        times[i] = flight.run(query.sql());
      }
    } catch (Exception e) {
      out.printf(Locale.ROOT, "  %s %s hot over Flight SQL failed: %s%n", query.name(), mode, e);
      return null;
    }
    LatencySummary hot = LatencySummary.ofNanos(times);
    out.printf(
        Locale.ROOT,
        "  %s %s hot over Flight SQL: median %.2f ms, p95 %.2f ms%n",
        query.name(),
        mode,
        hot.medianMs(),
        hot.p95Ms());
    return hot;
  }

  private List<QpsSweep> sweep(BenchMode mode, QueryProbe probe) throws InterruptedException {
    List<QpsSweep> sweeps = new ArrayList<>();
    try (LoadGenerator generator = new LoadGenerator(64, Duration.ofSeconds(30))) {
      QpsSweeper sweeper = new QpsSweeper(generator, QpsSweeper.DEFAULT_TARGETS, options.qpsStep());
      for (BenchQuery query : options.queries()) {
        QpsSweep sweep =
            sweeper.sweep(
                query.name(),
                mode.id(),
                () -> {
                  JsonNode response =
                      probe.client().query(query.sql(), Optional.of(QueryProbe.QUERY_TIMEOUT));
                  return response.path("exceptions").isEmpty();
                },
                step ->
                    out.printf(
                        Locale.ROOT,
                        "  %s %s at %.0f QPS: achieved %.1f, mean %.1f ms, p99 %.1f ms, CPU %.0f%%%n",
                        query.name(),
                        mode,
                        step.targetQps(),
                        step.achievedQps(),
                        step.meanMs(),
                        step.p99Ms(),
                        100 * step.processCpu()));
        sweeps.add(sweep);
      }
    }
    return sweeps;
  }
}
