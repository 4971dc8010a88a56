package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchMode;
import io.shelfmark.cli.bench.BenchOptions;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.BenchTopology;
import io.shelfmark.cli.bench.lake.ProxiedLake;
import io.shelfmark.cli.bench.report.DuckDbRecord;
import io.shelfmark.cli.bench.report.HopRecord;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.bench.report.QueryRecord;
import io.shelfmark.cli.cluster.ClusterProcess;
import io.shelfmark.cli.cluster.LocalCluster;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.unit.DataSize;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster part of a run ({@code --topology cluster}): per pinned mode, a local cluster of real
 * processes started by {@link LocalCluster} (ZooKeeper, a controller, a broker and {@code
 * --servers} servers on 127.0.0.1) over the benchmark's lake, reaching the data files and the
 * segment store through the same latency proxy as the all-in-one node; the table onboarded through
 * the controller; then, once every data file is routed to its replicas (pinned on their servers),
 * the same hot runs as the all-in-one node's through the cluster broker's HTTP, and over its Flight
 * SQL endpoint.
 *
 * <p>When the all-in-one node ran too, each query's answer is compared with the all-in-one node's
 * (a difference is the record's error) and its hop is computed: the cluster's hot median minus the
 * all-in-one node's, and the broker's own view from EXPLAIN ANALYZE.
 *
 * <p>Not measured through the cluster: cold runs (its servers pin before serving, and a fresh
 * cluster takes seconds to route), the QPS sweep, and remote mode.
 */
final class ClusterBench {
  /** Each role process's heap: the servers hold the pinned segments' readers and the page cache. */
  static final int HEAP_MEGABYTES = 1024;

  /** Unmeasured runs of each query before the hot runs, as a multiple of {@code --runs}. */
  static final int WARMUP_ROUNDS = 3;

  /** Warm-up rounds made while {@link #WARMUP_TIME} lasts, as the all-in-one node's 200 queries. */
  static final int WARMUP_MAX_ROUNDS = 200;

  static final Duration WARMUP_TIME = Duration.ofSeconds(60);

  private static final Duration ROUTED_TIMEOUT = Duration.ofMinutes(10);
  private static final Duration QUIET_WINDOW = Duration.ofMillis(200);
  private static final Duration QUIET_TIMEOUT = Duration.ofSeconds(10);

  private final BenchOptions options;
  private final ProxiedLake lake;
  private final EngineBench engine;
  private final TableConfig table;
  private final PrintStream out;
  private final boolean quiet;
  private final List<QueryRecord> records = new ArrayList<>();
  private final List<HopRecord> hops = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  /**
   * @param engine the all-in-one part of the run, whose hot-run and Flight SQL steps the cluster
   *     repeats
   */
  ClusterBench(
      BenchOptions options,
      ProxiedLake lake,
      EngineBench engine,
      TableConfig table,
      PrintStream out,
      boolean quiet) {
    this.options = requireNonNull(options, "options is null");
    this.lake = requireNonNull(lake, "lake is null");
    this.engine = requireNonNull(engine, "engine is null");
    this.table = requireNonNull(table, "table is null");
    this.out = requireNonNull(out, "out is null");
    this.quiet = quiet;
  }

  /**
   * Runs every pinned mode through a fresh local cluster.
   *
   * @param allInOne the all-in-one node's records of this run (empty when it did not run)
   * @param views the all-in-one node's answers and EXPLAIN times, by {@link TopologyView#key}
   */
  void run(
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb,
      List<QueryRecord> allInOne,
      Map<String, TopologyView> views)
      throws IOException, InterruptedException {
    notes.add(
        "Cluster: per mode a local cluster of real processes on 127.0.0.1 (ZooKeeper, 1"
            + " controller, 1 broker, "
            + options.servers()
            + " servers, -Xmx"
            + HEAP_MEGABYTES
            + "m each) over the same lake and latency proxy; the table onboarded through the"
            + " controller, every data file routed to min(replication, servers) servers that"
            + " pinned its segment, every query run unmeasured (the role"
            + " processes have no warm-up of their own; see the warm-up note), then"
            + " the same hot runs through the broker's HTTP (and Flight SQL). No cold runs or sweeps through the cluster. The controller and broker read"
            + " the catalog's metadata through the proxy too (the all-in-one node reads it"
            + " directly), so a snapshot refresh during a hot run would show in its counters.");
    for (BenchMode mode : options.clusterModes()) {
      runMode(mode, bounds, duckDb, allInOne, views);
    }
  }

  List<QueryRecord> records() {
    return List.copyOf(records);
  }

  List<HopRecord> hops() {
    return List.copyOf(hops);
  }

  List<String> notes() {
    return List.copyOf(notes);
  }

  private void runMode(
      BenchMode mode,
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb,
      List<QueryRecord> allInOne,
      Map<String, TopologyView> views)
      throws IOException, InterruptedException {
    Path runDir = options.clusterDir().resolve(mode.id().replace('+', '-')).toAbsolutePath();
    BenchNodes.deleteTree(runDir);
    Files.createDirectories(runDir);
    // The lake as a cluster config names it: storage through the proxy, the catalog, the store.
    Path lakeConfig = runDir.resolve("lake.json");
    BenchNodes.writeConfig(BenchNodes.config(lake, mode, runDir.resolve("unused")), lakeConfig);
    out.printf(
        Locale.ROOT,
        "  cluster (%s): ZooKeeper, controller, broker and %d servers in %s%n",
        mode,
        options.servers(),
        runDir);
    PrintStream steps =
        quiet
            ? new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8)
            : out;
    List<ClusterProcess> processes =
        LocalCluster.up(
            new LocalCluster.Options(
                runDir,
                options.servers(),
                1,
                Optional.of(lakeConfig),
                options.rows(),
                HEAP_MEGABYTES,
                quiet,
                mode.pageCache() ? BenchNodes.PAGE_CACHE : DataSize.ofBytes(0)),
            steps);
    try {
      LocalCluster.onboard(processes, table, quiet, steps);
      int replicas = Math.min(table.replication(), options.servers());
      LocalCluster.awaitRouted(
          processes, table.identity().qualifiedName(), replicas, ROUTED_TIMEOUT);
      measure(mode, processes, bounds, duckDb, allInOne, views);
    } finally {
      LocalCluster.down(runDir, steps);
    }
  }

  /**
   * Runs every query unmeasured, round after round: at least {@link #WARMUP_ROUNDS} × {@code
   * --runs} rounds, then on up to {@link #WARMUP_MAX_ROUNDS} rounds while {@link #WARMUP_TIME}
   * lasts. The role processes start with a cold JIT and no warm-up of their own, while the
   * all-in-one node's JVM has run its node warm-up (200 queries a node start), the pin step and the
   * cold runs before its hot runs. On a loaded 2-core machine (20,000 rows, Q1) the cluster's hot
   * median was 125 ms with no warm-up and 50 ms after 30 rounds, against the warm all-in-one node's
   * 5 ms: the JIT, not the hop.
   */
  private void warmUp(QueryProbe probe) {
    int least = WARMUP_ROUNDS * options.hotRuns();
    long deadline = System.nanoTime() + WARMUP_TIME.toNanos();
    int round = 0;
    while (round < least || (round < WARMUP_MAX_ROUNDS && System.nanoTime() < deadline)) {
      for (BenchQuery query : options.queries()) {
        probe.client().query(query.sql(), Optional.of(QueryProbe.QUERY_TIMEOUT));
      }
      round++;
    }
    notes.add(
        "Cluster warm-up: "
            + round
            + " rounds of every query before the hot runs (at least "
            + least
            + ", then up to "
            + WARMUP_MAX_ROUNDS
            + " within "
            + WARMUP_TIME.toSeconds()
            + " s).");
  }

  private void measure(
      BenchMode mode,
      List<ClusterProcess> processes,
      List<QueryBound> bounds,
      List<DuckDbRecord> duckDb,
      List<QueryRecord> allInOne,
      Map<String, TopologyView> views)
      throws InterruptedException {
    ClusterProcess broker =
        processes.stream().filter(p -> p.role().equals("broker")).findFirst().orElseThrow();
    QueryProbe probe = new QueryProbe("http://127.0.0.1:" + broker.httpPort().orElseThrow(), lake);
    probe.connect();
    warmUp(probe);
    if (!lake.awaitQuiet(QUIET_WINDOW, QUIET_TIMEOUT)) {
      notes.add(
          "Cluster "
              + mode
              + ": the servers still made storage requests "
              + QUIET_TIMEOUT.toSeconds()
              + " s after every file was routed; the first hot runs may include them.");
    }
    try (FlightSqlProbe flight =
        new FlightSqlProbe("127.0.0.1", broker.ports().get("broker-flight"))) {
      for (BenchQuery query : options.queries()) {
        QueryRecord record =
            engine
                .hot(query, mode, probe, null, bounds, duckDb)
                .withFlightSql(engine.flightHot(query, mode, flight))
                .withTopology(BenchTopology.CLUSTER.id());
        TopologyView view =
            TopologyView.observe(probe.client(), query, mode, options.hotRuns(), out);
        Optional<QueryRecord> single =
            allInOne.stream()
                .filter(r -> r.query().equals(query.name()) && r.mode().equals(mode.id()))
                .findFirst();
        TopologyView singleView = views.get(TopologyView.key(query, mode));
        if (singleView != null) {
          Optional<String> difference = singleView.difference(view);
          if (difference.isPresent()) {
            record =
                record.withError(
                    "the cluster's answer differs from the all-in-one node's: " + difference.get());
          }
        }
        records.add(record);
        if (single.isPresent()) {
          HopRecord hop =
              HopRecord.of(
                  single.get(),
                  record,
                  options.servers(),
                  singleView == null ? null : singleView.explain(),
                  view.explain());
          hops.add(hop);
          out.printf(
              Locale.ROOT,
              "  %s %s hop: cluster %.2f ms - all-in-one %.2f ms = %.2f ms%s%n",
              query.name(),
              mode,
              hop.clusterHotMedianMs(),
              hop.allInOneHotMedianMs(),
              hop.hopMs(),
              hop.explainHopMs() == null
                  ? ""
                  : String.format(Locale.ROOT, " (broker's view: %.2f ms)", hop.explainHopMs()));
        }
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException interrupted) {
        throw interrupted;
      }
      throw new IllegalStateException(
          "Cannot measure the cluster in " + mode + " mode: " + e.getMessage(), e);
    }
  }
}
