package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A QPS sweep of one query in one mode: increasing target rates until saturation.
 *
 * @param query Q1 … Q4
 * @param mode the mode swept
 * @param steps the steps in order; the last one is the first that saturated (or the last target)
 * @param maxSustainedQps the highest achieved rate of a step that kept up (achieved ≥ 90% of the
 *     target) with p99 ≤ 100 ms; 0 when none did
 */
public record QpsSweep(String query, String mode, List<QpsStep> steps, double maxSustainedQps) {
  public QpsSweep {
    requireNonNull(query, "query is null");
    requireNonNull(mode, "mode is null");
    steps = List.copyOf(requireNonNull(steps, "steps is null"));
  }
}
