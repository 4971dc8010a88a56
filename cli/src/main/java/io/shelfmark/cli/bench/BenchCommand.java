package io.shelfmark.cli.bench;

import io.shelfmark.cli.bench.run.BenchRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shelfmark bench}: the benchmark of ../shared/BENCHMARK.md in one run. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Run the obs.metrics benchmark (queries Q1-Q4) on this machine and write its report.",
      "",
      "In one run: start an embedded lake whose S3 endpoint Shelfmark reaches only through a"
          + " latency-injecting proxy (each request waits --latency-ms before its first byte; the"
          + " proxy counts requests and bytes by itself); generate the table, or reuse it from"
          + " --data-dir; compute each query's lower bound of bytes from the files' page layout;"
          + " run the same queries through DuckDB over the same files on local disk (the scan"
          + " baseline); build the indexes (time, rows/s, index bytes / data bytes); then per"
          + " mode a cold run of each query on a fresh node (a fresh child JVM by default, see"
          + " --cold) and >= --runs hot runs in a warm one (median and p95 of runs 2..N, client-observed over HTTP), with storage bytes,"
          + " requests and sequential round trips from Shelfmark and from the proxy; with"
          + " --qps-sweep, an open-loop load at increasing QPS until saturation.",
      "",
      "Writes DIR/bench.json (schema in docs/performance.md), DIR/bench.md (the tables, with each"
          + " target met or missed and by how much) and DIR/latency.png, DIR/qps.png.",
      "",
      "Modes: remote (segments read from the segment store through a memory-only cache),"
          + " pinned (segments on local disk), pinned+pages (plus the disk page cache).",
      "",
      "Topologies: all-in-one (every role in one process, the default) and cluster (a local"
          + " cluster of real processes as cluster up starts it: ZooKeeper, a controller, a broker"
          + " and --servers servers on 127.0.0.1, over the same lake and latency proxy; the broker"
          + " reaches the servers over Arrow Flight). The cluster runs the hot runs only (no cold"
          + " runs, no QPS sweep) and the pinned modes of --modes (remote runs on the all-in-one node"
          + " only; a cluster-only run without a pinned mode is refused). With"
          + " --topology all-in-one,cluster one run measures both and reports each query's broker"
          + " -> server hop: the cluster's hot median minus the all-in-one node's, and the"
          + " broker's own view from EXPLAIN ANALYZE (per-server round trips).",
      ""
    })
public final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--rows",
      description = "Rows of the generated obs.metrics table (default: ${DEFAULT-VALUE}).")
  long rows = BenchOptions.DEFAULT_ROWS;

  @Option(names = "--seed", description = "Generator seed (default: ${DEFAULT-VALUE}).")
  long seed = 42;

  @Option(
      names = "--latency-ms",
      description =
          "Injected time to first byte of every object-storage request (default:"
              + " ${DEFAULT-VALUE}).")
  long latencyMs = BenchOptions.DEFAULT_LATENCY_MS;

  @Option(
      names = "--bandwidth-mib",
      description = "Cap each proxied connection to this many MiB/s (default: no cap).")
  Long bandwidthMib;

  @Option(
      names = "--modes",
      split = ",",
      description = "Modes to measure: remote, pinned, pinned+pages (default: all three).")
  List<String> modes = List.of("remote", "pinned", "pinned+pages");

  @Option(
      names = "--queries",
      split = ",",
      description =
          "Queries to measure: Q1, Q2, Q3, Q4, and Q2-rows, Q3-rows (Q2 and Q3 with"
              + " star-trees off: OPTION(useStarTree=false)) (default: all six).")
  List<String> queries = List.of("Q1", "Q2", "Q3", "Q4", "Q2-rows", "Q3-rows");

  @Option(
      names = "--runs",
      description =
          "Hot runs per query and mode, at least 10; median and p95 are over runs 2..N (default:"
              + " ${DEFAULT-VALUE}).")
  int runs = BenchOptions.DEFAULT_HOT_RUNS;

  @Option(
      names = "--duckdb-runs",
      description = "Runs per query of the DuckDB baseline; run 1 is its cold run (default: 10).")
  int duckDbRuns = 10;

  @Option(
      names = "--qps-sweep",
      description =
          "Also sweep each query at increasing target QPS (open loop) until achieved < 90%% of"
              + " target or p99 > 100 ms; records target, achieved, mean, p99 and process CPU.")
  boolean qpsSweep;

  @Option(
      names = "--qps-step-seconds",
      description =
          "How long each target QPS is held at least; a lower target is held until it has"
              + " scheduled 200 queries, so its p99 is not just its slowest answer (default:"
              + " ${DEFAULT-VALUE}).")
  double qpsStepSeconds = 5;

  @Option(
      names = "--cold",
      description =
          "Where each cold run runs: process (a fresh child JVM per mode and query: classes, JIT"
              + " and caches all cold; its output goes to DATA-DIR/cold/) or in-jvm (a fresh node"
              + " in this JVM: new caches, warm JIT) (default: ${DEFAULT-VALUE}).")
  String cold = ColdStart.PROCESS.id();

  @Option(
      names = "--topology",
      split = ",",
      description =
          "Where the queries run: all-in-one, cluster, or all-in-one,cluster for both side by side"
              + " with the broker -> server hop per query (default: all-in-one).")
  List<String> topologies = List.of(BenchTopology.ALL_IN_ONE.id());

  @Option(
      names = "--servers",
      description =
          "Server processes of the local cluster (--topology cluster) (default: ${DEFAULT-VALUE}).")
  int servers = BenchOptions.DEFAULT_SERVERS;

  @Option(
      names = "--writer",
      description =
          "Which Parquet writer lays out the table: java (iceberg-core, the generator's settings)"
              + " or pyarrow (the same rows rewritten by pyarrow.parquet with its defaults: 1 MiB"
              + " pages, dictionary on every column, no page index; needs a Python with pyarrow,"
              + " see --python) or pyiceberg (the same rows appended by pyiceberg's Table.append"
              + " with its default write properties: zstd, 1 MiB pages, 2 MiB dictionaries; needs"
              + " pyiceberg too) (default: ${DEFAULT-VALUE}).")
  String writer = BenchWriter.JAVA.id();

  @Option(
      names = "--python",
      description =
          "The Python (with pyarrow, and pyiceberg for --writer pyiceberg) that --writer pyarrow"
              + " and pyiceberg run (default: $SHELFMARK_PYTHON, then"
              + " .shelfmark-build/pyenv/bin/python as bin/test builds it, then python3 on the"
              + " PATH).")
  Path python;

  @Option(
      names = "--data-dir",
      description =
          "Where the lake and the nodes' data live; the table is reused across runs (default:"
              + " ${DEFAULT-VALUE}).")
  Path dataDir = Path.of(System.getProperty("user.home"), ".shelfmark", "bench");

  @Option(
      names = "--out",
      description = "Where bench.json, bench.md and the charts go (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench-results");

  @Override
  public Integer call() throws Exception {
    BenchOptions options = options();
    new BenchRun(options, commandLine(), System.out, true).run();
    return 0;
  }

  public BenchOptions options() {
    List<BenchMode> parsedModes = new ArrayList<>();
    for (String mode : modes) {
      parsedModes.add(BenchMode.fromId(mode));
    }
    List<BenchTopology> parsedTopologies = new ArrayList<>();
    for (String topology : topologies) {
      parsedTopologies.add(BenchTopology.fromId(topology));
    }
    return new BenchOptions(
        rows,
        seed,
        Duration.ofMillis(latencyMs),
        bandwidthMib == null ? OptionalLong.empty() : OptionalLong.of(bandwidthMib << 20),
        parsedModes,
        BenchQueries.select(queries),
        runs,
        duckDbRuns,
        qpsSweep,
        Duration.ofMillis(Math.round(qpsStepSeconds * 1000)),
        ColdStart.fromId(cold),
        dataDir,
        out,
        parsedTopologies,
        servers,
        BenchWriter.fromId(writer),
        Optional.ofNullable(python));
  }

  private String commandLine() {
    // The root's parse result holds every argument, the subcommand's name included.
    StringBuilder line = new StringBuilder("bin/shelfmark");
    if (spec != null && spec.root().commandLine().getParseResult() != null) {
      for (String arg : spec.root().commandLine().getParseResult().originalArgs()) {
        line.append(' ').append(arg);
      }
    } else {
      line.append(" bench");
    }
    return line.toString();
  }
}
