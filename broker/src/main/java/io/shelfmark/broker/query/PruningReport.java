package io.shelfmark.broker.query;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import java.util.List;

/**
 * What the broker's pruning did to a route's files, for EXPLAIN: the files kept, and how many each
 * step (partition values, then column statistics) and each WHERE term left out.
 *
 * @param candidates the files kept, in the route's order (what {@link FilePruning#candidates}
 *     answers)
 * @param files the snapshot's data files
 * @param afterPartition files left after partition pruning
 * @param afterStatistics files left after statistics pruning (the candidates)
 * @param reasons per step and term, the files it pruned; a file is counted once, under the first
 *     term that rules it out alone, or under the whole filter (term {@code ""}) when only the terms
 *     together do
 */
public record PruningReport(
    List<DataFileInfo> candidates,
    int files,
    int afterPartition,
    int afterStatistics,
    List<Reason> reasons) {
  public PruningReport {
    candidates = List.copyOf(requireNonNull(candidates, "candidates is null"));
    reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
    if (afterStatistics != candidates.size()) {
      throw new IllegalArgumentException(
          "afterStatistics is %d but %d candidates are kept"
              .formatted(afterStatistics, candidates.size()));
    }
  }

  /** The pruning steps, in the order they run. */
  public enum Step {
    PARTITION,
    STATISTICS
  }

  /**
   * @param step the step that pruned the files
   * @param term the WHERE term that alone rules them out, or {@code ""} for the whole filter
   * @param files how many files
   */
  public record Reason(Step step, String term, int files) {
    public Reason {
      requireNonNull(step, "step is null");
      requireNonNull(term, "term is null");
    }
  }
}
