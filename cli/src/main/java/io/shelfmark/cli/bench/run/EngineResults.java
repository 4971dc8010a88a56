package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.report.BuildFigures;
import io.shelfmark.cli.bench.report.QpsSweep;
import io.shelfmark.cli.bench.report.QueryRecord;
import java.util.List;

/**
 * What the engine part of a run measured.
 *
 * @param build the index build
 * @param queries one record per query × mode
 * @param sweeps QPS sweeps
 * @param notes definitions and failures to report
 * @param completed whether every step ran (false after a failure that cut the run short)
 */
public record EngineResults(
    BuildFigures build,
    List<QueryRecord> queries,
    List<QpsSweep> sweeps,
    List<String> notes,
    boolean completed) {
  public EngineResults {
    requireNonNull(build, "build is null");
    queries = List.copyOf(requireNonNull(queries, "queries is null"));
    sweeps = List.copyOf(requireNonNull(sweeps, "sweeps is null"));
    notes = List.copyOf(requireNonNull(notes, "notes is null"));
  }

  /** No engine measurement, for the reason given. */
  public static EngineResults notRun(String reason) {
    return new EngineResults(
        BuildFigures.of(0, 0, 0, 0, 0, 0), List.of(), List.of(), List.of(reason), false);
  }
}
