package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The options a run used, as plain values.
 *
 * @param rows rows of the table
 * @param seed generator seed
 * @param latencyMs injected time to first byte per object-storage request
 * @param bandwidthBytesPerSecond the proxy's cap per connection; null for none
 * @param modes the modes measured ({@code remote}, {@code pinned}, {@code pinned+pages})
 * @param queries the queries measured
 * @param hotRuns runs per query in the warm process
 * @param duckDbRuns runs per query of DuckDB
 * @param qpsSweep whether the sweep ran
 * @param coldProcess whether cold runs used a fresh child JVM (true) or a fresh in-process node
 * @param topologies where the queries ran ({@code all-in-one}, {@code cluster}); a report written
 *     before topologies reads as {@code all-in-one}
 * @param servers server processes of the local cluster; null when no cluster ran
 * @param writer which writer laid out the table's data files ({@code java}, {@code pyarrow}); a
 *     report written before writers reads as {@code java}
 */
public record BenchSettings(
    long rows,
    long seed,
    long latencyMs,
    Long bandwidthBytesPerSecond,
    List<String> modes,
    List<String> queries,
    int hotRuns,
    int duckDbRuns,
    boolean qpsSweep,
    boolean coldProcess,
    List<String> topologies,
    Integer servers,
    String writer) {
  public BenchSettings {
    modes = List.copyOf(requireNonNull(modes, "modes is null"));
    queries = List.copyOf(requireNonNull(queries, "queries is null"));
    topologies = topologies == null ? List.of(QueryRecord.ALL_IN_ONE) : List.copyOf(topologies);
    writer = writer == null ? "java" : writer;
  }

  /** The settings of a run on the all-in-one node only. */
  public BenchSettings(
      long rows,
      long seed,
      long latencyMs,
      Long bandwidthBytesPerSecond,
      List<String> modes,
      List<String> queries,
      int hotRuns,
      int duckDbRuns,
      boolean qpsSweep,
      boolean coldProcess) {
    this(
        rows,
        seed,
        latencyMs,
        bandwidthBytesPerSecond,
        modes,
        queries,
        hotRuns,
        duckDbRuns,
        qpsSweep,
        coldProcess,
        List.of(QueryRecord.ALL_IN_ONE),
        null,
        "java");
  }
}
