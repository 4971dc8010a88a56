package io.shelfmark.cli.bench;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one {@code shelfmark bench} run does. Validated on construction; every violation names the
 * option and what to use instead.
 *
 * @param rows rows of the generated {@code obs.metrics}
 * @param seed generator seed (the table is reused when rows and seed match)
 * @param latency injected time to first byte of every object-storage request
 * @param bandwidth bytes per second per connection through the proxy; empty for no cap
 * @param modes the modes to measure, in order
 * @param queries the queries to measure, in order
 * @param hotRuns runs per query in the warm process (median and p95 are over runs 2..N)
 * @param duckDbRuns runs per query of the DuckDB baseline (same statistic)
 * @param qpsSweep whether to run the concurrency sweep
 * @param qpsStep how long each target QPS of the sweep is held
 * @param cold where cold runs run: a fresh child JVM per mode and query, or a fresh node in this
 *     JVM
 * @param dataDir where the lake and the nodes' data live (reused across runs)
 * @param outDir where bench.json, bench.md and the charts go
 * @param topologies where the queries run, in order: the all-in-one node, a local cluster, or both
 *     (then the report gives the broker → server hop's cost per query)
 * @param servers server processes of the local cluster (topology {@code cluster})
 * @param writer which Parquet writer lays out the table's data files
 * @param python the Python with pyarrow the Python writers ({@link BenchWriter#python()}) run;
 *     empty to find one (environment variable {@code SHELFMARK_PYTHON}, then {@code
 *     .shelfmark-build/pyenv}, then {@code python3})
 */
public record BenchOptions(
    long rows,
    long seed,
    Duration latency,
    OptionalLong bandwidth,
    List<BenchMode> modes,
    List<BenchQuery> queries,
    int hotRuns,
    int duckDbRuns,
    boolean qpsSweep,
    Duration qpsStep,
    ColdStart cold,
    Path dataDir,
    Path outDir,
    List<BenchTopology> topologies,
    int servers,
    BenchWriter writer,
    Optional<Path> python) {
  public static final long DEFAULT_ROWS = 20_000_000;
  public static final int DEFAULT_SERVERS = 2;
  public static final long DEFAULT_LATENCY_MS = 20;
  public static final int DEFAULT_HOT_RUNS = 15;
  public static final int MIN_HOT_RUNS = 10;

  public BenchOptions {
    requireNonNull(latency, "latency is null");
    requireNonNull(bandwidth, "bandwidth is null");
    requireNonNull(qpsStep, "qpsStep is null");
    requireNonNull(cold, "cold is null");
    requireNonNull(dataDir, "dataDir is null");
    requireNonNull(outDir, "outDir is null");
    requireNonNull(writer, "writer is null");
    requireNonNull(python, "python is null");
    modes = List.copyOf(requireNonNull(modes, "modes is null"));
    queries = List.copyOf(requireNonNull(queries, "queries is null"));
    topologies = List.copyOf(requireNonNull(topologies, "topologies is null"));
    check(rows >= 1, "--rows", rows, "need at least 1 row");
    check(!latency.isNegative(), "--latency-ms", latency.toMillis(), "need 0 or more");
    check(
        bandwidth.isEmpty() || bandwidth.getAsLong() >= 1,
        "--bandwidth",
        bandwidth,
        "need at least 1 byte/s, or leave it out for no cap");
    check(!modes.isEmpty(), "--modes", modes, "name at least one of remote, pinned, pinned+pages");
    check(modes.stream().distinct().count() == modes.size(), "--modes", modes, "name each once");
    check(!queries.isEmpty(), "--queries", queries, "name at least one of Q1, Q2, Q3, Q4");
    check(
        hotRuns >= MIN_HOT_RUNS,
        "--runs",
        hotRuns,
        "need at least " + MIN_HOT_RUNS + ": the median and p95 are over runs 2..N");
    check(duckDbRuns >= 2, "--duckdb-runs", duckDbRuns, "need at least 2: run 1 is the cold one");
    check(
        qpsStep.toMillis() >= 200,
        "--qps-step-seconds",
        qpsStep,
        "need at least 0.2 s per target to measure a rate");
    check(!topologies.isEmpty(), "--topology", topologies, "name all-in-one, cluster or both");
    check(
        topologies.stream().distinct().count() == topologies.size(),
        "--topology",
        topologies,
        "name each once");
    check(servers >= 1, "--servers", servers, "need at least 1 server process");
    if (topologies.contains(BenchTopology.CLUSTER)) {
      // The cluster's servers pin every segment they are given (segment-mode pinned, as cluster up
      // starts them): remote mode has no cluster form here, so the cluster runs the pinned modes.
      check(
          modes.stream().anyMatch(BenchMode::pinned),
          "--modes",
          modes,
          "the cluster topology measures pinned and pinned+pages only (its servers pin their"
              + " segments); name one of them, or run remote with --topology all-in-one");
      check(
          !qpsSweep || topologies.contains(BenchTopology.ALL_IN_ONE),
          "--qps-sweep",
          qpsSweep,
          "the sweep runs on the all-in-one node; add --topology all-in-one,cluster");
    }
  }

  /** Options of a run on the all-in-one node only (the default topology). */
  public BenchOptions(
      long rows,
      long seed,
      Duration latency,
      OptionalLong bandwidth,
      List<BenchMode> modes,
      List<BenchQuery> queries,
      int hotRuns,
      int duckDbRuns,
      boolean qpsSweep,
      Duration qpsStep,
      ColdStart cold,
      Path dataDir,
      Path outDir) {
    this(
        rows,
        seed,
        latency,
        bandwidth,
        modes,
        queries,
        hotRuns,
        duckDbRuns,
        qpsSweep,
        qpsStep,
        cold,
        dataDir,
        outDir,
        List.of(BenchTopology.ALL_IN_ONE),
        DEFAULT_SERVERS,
        BenchWriter.JAVA,
        Optional.empty());
  }

  /** Whether the all-in-one node runs the queries. */
  public boolean allInOne() {
    return topologies.contains(BenchTopology.ALL_IN_ONE);
  }

  /** Whether a local cluster runs the queries. */
  public boolean cluster() {
    return topologies.contains(BenchTopology.CLUSTER);
  }

  /** The modes the local cluster runs: the pinned ones of {@link #modes}, in order. */
  public List<BenchMode> clusterModes() {
    return modes.stream().filter(BenchMode::pinned).toList();
  }

  /** The local cluster's run directory (its processes' configs, logs and data). */
  public Path clusterDir() {
    return dataDir.resolve("cluster-" + rows + "-" + seed + writer.directorySuffix());
  }

  private static void check(boolean valid, String option, Object value, String hint) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Cannot use " + option + " " + value + " for the benchmark (" + hint + ")");
    }
  }

  /** The directory of the lake (embedded S3 base directory and SQLite catalog). */
  public Path lakeDir() {
    return dataDir.resolve("lake-" + rows + "-" + seed + writer.directorySuffix());
  }

  /**
   * Where the Python writers ({@link BenchWriter#python()}) stage the files it writes before
   * upload.
   */
  public Path stagingDir() {
    return dataDir.resolve("staging-" + rows + "-" + seed + writer.directorySuffix());
  }

  /** Where the child JVMs of cold runs keep their config, port file and log. */
  public Path coldDir() {
    return dataDir.resolve("cold");
  }

  /** The node data directory of one mode (segments, cache); emptied before each cold start. */
  public Path nodeDir(BenchMode mode) {
    return dataDir
        .resolve("node-" + rows + "-" + seed + writer.directorySuffix())
        .resolve(mode.id().replace('+', '-'));
  }
}
