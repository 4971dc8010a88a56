package io.shelfmark.broker.prune;

import io.shelfmark.broker.query.FilePruning;
import io.shelfmark.broker.query.PruningReport;
import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The broker's pruning of a route's data files: on each file's partition, and on its segment's
 * statistics when it has a segment (exact, and covering extracted map keys), else on the bounds its
 * Iceberg manifest entry carries. Stateless and thread safe; no I/O.
 */
public final class SnapshotPruning implements FilePruning {
  @Override
  public List<DataFileInfo> candidates(QueryPlan plan, TableRoute route) {
    List<DataFileInfo> files = route.snapshot().dataFiles();
    if (plan.filter().isEmpty()) {
      return files;
    }
    FilePruner pruner = FilePruner.of(plan, route.schema(), route.specs());
    List<DataFileInfo> kept = new ArrayList<>(files.size());
    for (DataFileInfo file : files) {
      if (prune(pruner, file, route).mightMatch()) {
        kept.add(file);
      }
    }
    return kept;
  }

  /**
   * As {@link #candidates}, saying for each pruned file which step ruled it out and under which
   * WHERE term: the first term that rules the file out on its own, through a pruner of that term
   * alone (the same partition projection and statistics evaluation), else the filter as a whole.
   */
  @Override
  public PruningReport explain(QueryPlan plan, TableRoute route) {
    List<DataFileInfo> files = route.snapshot().dataFiles();
    if (plan.filter().isEmpty()) {
      return new PruningReport(files, files.size(), files.size(), files.size(), List.of());
    }
    FilePruner pruner = FilePruner.of(plan, route.schema(), route.specs());
    List<Expression> terms = plan.filterConjuncts();
    List<FilePruner> termPruners = new ArrayList<>(terms.size());
    for (Expression term : terms) {
      termPruners.add(FilePruner.of(Optional.of(term), route.schema(), route.specs()));
    }
    List<DataFileInfo> kept = new ArrayList<>(files.size());
    Map<PruningReport.Step, Map<String, Integer>> counts = new EnumMap<>(PruningReport.Step.class);
    int partitionPruned = 0;
    for (DataFileInfo file : files) {
      if (prune(pruner, file, route).mightMatch()) {
        kept.add(file);
        continue;
      }
      PruningReport.Step step =
          pruner.prunePartition(file) == PruneResult.CANNOT_MATCH
              ? PruningReport.Step.PARTITION
              : PruningReport.Step.STATISTICS;
      if (step == PruningReport.Step.PARTITION) {
        partitionPruned++;
      }
      String reason = "";
      for (int i = 0; i < terms.size(); i++) {
        FilePruner alone = termPruners.get(i);
        PruneResult result =
            step == PruningReport.Step.PARTITION
                ? alone.prunePartition(file)
                : prune(alone, file, route);
        if (result == PruneResult.CANNOT_MATCH) {
          reason = terms.get(i).toString();
          break;
        }
      }
      counts.computeIfAbsent(step, s -> new LinkedHashMap<>()).merge(reason, 1, Integer::sum);
    }
    List<PruningReport.Reason> reasons = new ArrayList<>();
    counts.forEach(
        (step, byTerm) ->
            byTerm.forEach(
                (term, count) -> reasons.add(new PruningReport.Reason(step, term, count))));
    return new PruningReport(
        kept, files.size(), files.size() - partitionPruned, kept.size(), reasons);
  }

  /** A file pruned on its segment's statistics when it has a segment, else its manifest's. */
  private static PruneResult prune(FilePruner pruner, DataFileInfo file, TableRoute route) {
    Optional<SegmentRoute> segment = route.segment(file);
    return segment.isPresent() && segment.get().statistics().files().size() == 1
        ? pruner.prune(
            file,
            PruningStatistics.of(
                file.recordCount(), segment.get().statistics().files().getFirst().file()))
        : pruner.prune(file);
  }
}
