package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * The whole result of one {@code shelfmark bench} run: what {@code bench.json} holds (every field
 * is documented in docs/performance.md). Fields are never renamed or removed within a {@link
 * #SCHEMA_VERSION}; a new version is made for any change that could break a reader.
 *
 * @param schemaVersion {@link #SCHEMA_VERSION}
 * @param generatedAt when the run finished, ISO-8601 UTC
 * @param command the command line that made it
 * @param machine the machine it ran on
 * @param versions versions of Shelfmark and the libraries whose speed the figures depend on
 * @param settings the options of the run
 * @param table the benchmark table
 * @param build the index build
 * @param bounds per query: matching rows, lower bound of bytes, a scan engine's bytes
 * @param queries one record per query × mode
 * @param duckDb the scan baseline, one record per query
 * @param qpsSweeps one sweep per query × mode swept (empty without {@code --qps-sweep})
 * @param targets the targets against what this run measured
 * @param notes what the reader must know to read the figures (definitions, failures)
 * @param hops per query and mode measured on both topologies, the broker → server hop's cost (empty
 *     unless the run had {@code --topology all-in-one,cluster})
 */
public record BenchReport(
    int schemaVersion,
    String generatedAt,
    String command,
    MachineInfo machine,
    Map<String, String> versions,
    BenchSettings settings,
    TableFigures table,
    BuildFigures build,
    List<QueryBound> bounds,
    List<QueryRecord> queries,
    List<DuckDbRecord> duckDb,
    List<QpsSweep> qpsSweeps,
    List<TargetCheck> targets,
    List<String> notes,
    List<HopRecord> hops) {
  /** The version of this shape of {@code bench.json}. */
  public static final int SCHEMA_VERSION = 1;

  public BenchReport {
    requireNonNull(generatedAt, "generatedAt is null");
    requireNonNull(command, "command is null");
    requireNonNull(machine, "machine is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(table, "table is null");
    requireNonNull(build, "build is null");
    versions = Map.copyOf(requireNonNull(versions, "versions is null"));
    bounds = List.copyOf(requireNonNull(bounds, "bounds is null"));
    queries = List.copyOf(requireNonNull(queries, "queries is null"));
    duckDb = List.copyOf(requireNonNull(duckDb, "duckDb is null"));
    qpsSweeps = List.copyOf(requireNonNull(qpsSweeps, "qpsSweeps is null"));
    targets = List.copyOf(requireNonNull(targets, "targets is null"));
    notes = List.copyOf(requireNonNull(notes, "notes is null"));
    hops = hops == null ? List.of() : List.copyOf(hops);
  }

  /** A report without hops (a run on one topology). */
  public BenchReport(
      int schemaVersion,
      String generatedAt,
      String command,
      MachineInfo machine,
      Map<String, String> versions,
      BenchSettings settings,
      TableFigures table,
      BuildFigures build,
      List<QueryBound> bounds,
      List<QueryRecord> queries,
      List<DuckDbRecord> duckDb,
      List<QpsSweep> qpsSweeps,
      List<TargetCheck> targets,
      List<String> notes) {
    this(
        schemaVersion,
        generatedAt,
        command,
        machine,
        versions,
        settings,
        table,
        build,
        bounds,
        queries,
        duckDb,
        qpsSweeps,
        targets,
        notes,
        List.of());
  }
}
