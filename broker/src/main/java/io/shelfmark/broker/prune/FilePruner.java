package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.plan.QueryPlan;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides, before any I/O, which data files of a snapshot a query can skip: from the file's
 * partition (through Iceberg's transforms, see {@link PartitionPruner}) and from its column
 * statistics (a segment's, or the Iceberg manifest's lower/upper bounds and null counts, see {@link
 * StatisticsEvaluator}). A file is skipped only when no row of it can pass the filter.
 *
 * <pre>{@code
 * FilePruner pruner = FilePruner.of(plan, table.schema(), table.specs());
 * for (DataFileInfo file : snapshot.dataFiles()) {
 *   PruneResult result = segment.isPresent()
 *       ? pruner.prune(file, PruningStatistics.of(file.recordCount(), segmentStatistics))
 *       : pruner.prune(file);                 // the manifest's bounds
 *   if (result == PruneResult.CANNOT_MATCH) { pruned++; continue; }
 *   route(file);
 * }
 * }</pre>
 *
 * <p>Built once per query (it projects the filter through each partition spec once); thread safe. A
 * failure to evaluate never fails the query: the file is kept, the error logged at debug and
 * counted in {@link #errors()}.
 */
public final class FilePruner {
  private static final Logger log = LoggerFactory.getLogger(FilePruner.class);

  private final Optional<Expression> filter;
  private final Schema schema;
  private final PartitionPruner partitions;
  private final PruningErrors errors = new PruningErrors();

  private FilePruner(
      Optional<Expression> filter, Schema schema, Map<Integer, PartitionSpec> specs) {
    this.filter = requireNonNull(filter, "filter is null");
    this.schema = requireNonNull(schema, "schema is null");
    this.partitions = new PartitionPruner(filter, schema, specs, errors);
  }

  /**
   * @param plan the query; its filter is what files are pruned on
   * @param schema the table's current schema (the plan's column names are its names)
   * @param specs the table's partition specs by id ({@code table.specs()}): files of older specs
   *     are pruned on their own spec
   */
  public static FilePruner of(QueryPlan plan, Schema schema, Map<Integer, PartitionSpec> specs) {
    requireNonNull(plan, "plan is null");
    return new FilePruner(
        plan.filter(), schema, Map.copyOf(requireNonNull(specs, "specs is null")));
  }

  /** A pruner for a filter alone (a normalised BOOLEAN expression; empty = every row passes). */
  public static FilePruner of(
      Optional<Expression> filter, Schema schema, Map<Integer, PartitionSpec> specs) {
    return new FilePruner(filter, schema, Map.copyOf(requireNonNull(specs, "specs is null")));
  }

  /** Prunes a file on its partition and the column bounds its manifest entry carries. */
  public PruneResult prune(DataFileInfo file) {
    return prune(file, statistics(file, schema));
  }

  /**
   * Prunes a file on its partition and the given statistics (for example its segment's, which are
   * exact where the manifest's are truncated, and cover extracted map keys).
   */
  public PruneResult prune(DataFileInfo file, PruningStatistics statistics) {
    requireNonNull(file, "file is null");
    requireNonNull(statistics, "statistics is null");
    if (filter.isEmpty()) {
      return file.recordCount() == 0 ? PruneResult.CANNOT_MATCH : PruneResult.ALL_MATCH;
    }
    PruneResult partition = partitions.prune(file.partition(), errors);
    if (partition == PruneResult.CANNOT_MATCH) {
      log.debug("Pruned {} on its partition {}", file.path(), file.partition().path());
      return partition;
    }
    PruneResult result = evaluate(filter.get(), statistics, file.path());
    if (result == PruneResult.CANNOT_MATCH) {
      log.debug("Pruned {} on its column statistics", file.path());
    }
    return result;
  }

  /**
   * Whether the file's partition alone rules it out ({@link PruneResult#CANNOT_MATCH}); what {@link
   * #prune(DataFileInfo, PruningStatistics)} decides first. For EXPLAIN, which says which step
   * pruned a file.
   */
  public PruneResult prunePartition(DataFileInfo file) {
    requireNonNull(file, "file is null");
    if (filter.isEmpty()) {
      return file.recordCount() == 0 ? PruneResult.CANNOT_MATCH : PruneResult.MIGHT_MATCH;
    }
    return partitions.prune(file.partition(), errors);
  }

  /**
   * The statistics a file's Iceberg manifest entry gives, columns found by name in {@code schema}.
   */
  public static PruningStatistics statistics(DataFileInfo file, Schema schema) {
    return new IcebergStatistics(file, schema);
  }

  /** Evaluations that failed (files then kept): the {@code pruning_evaluation_errors} metric. */
  public PruningErrors errors() {
    return errors;
  }

  private PruneResult evaluate(Expression condition, PruningStatistics statistics, String unit) {
    try {
      return StatisticsEvaluator.evaluate(condition, statistics);
    } catch (RuntimeException e) {
      errors.record();
      log.debug("Cannot prune {} on statistics: {}", unit, e.toString());
      return PruneResult.MIGHT_MATCH;
    }
  }
}
