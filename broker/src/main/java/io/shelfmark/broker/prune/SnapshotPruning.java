package io.shelfmark.broker.prune;

import io.shelfmark.broker.query.FilePruning;
import io.shelfmark.broker.routing.SegmentRoute;
import io.shelfmark.broker.routing.TableRoute;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.ArrayList;
import java.util.List;
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
      Optional<SegmentRoute> segment = route.segment(file);
      PruneResult result =
          segment.isPresent() && segment.get().statistics().files().size() == 1
              ? pruner.prune(
                  file,
                  PruningStatistics.of(
                      file.recordCount(), segment.get().statistics().files().getFirst().file()))
              : pruner.prune(file);
      if (result.mightMatch()) {
        kept.add(file);
      }
    }
    return kept;
  }
}
