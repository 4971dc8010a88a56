package io.shelfmark.broker.prune;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.sql.expression.Expression;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Projections;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rules out partitions with Iceberg's own transforms: the filter is translated into an implied
 * Iceberg expression ({@link IcebergFilters}), projected through each partition spec with {@link
 * Projections#inclusive} (which guarantees that a row passing the expression lies in a partition
 * passing the projection: identity, bucket[N] (the literal hashed as Iceberg hashes it),
 * truncate[W] on numbers and strings, year/month/day/hour on dates and timestamps), and evaluated
 * on each file's partition tuple. A partition can only be ruled out (CANNOT_MATCH) or not
 * (MIGHT_MATCH).
 *
 * <p>Specs are rebound to the table's current schema, so a spec written before a column rename
 * still applies under the new name. A spec that cannot be projected (its source column dropped, an
 * unknown transform) prunes nothing, with a debug log and a counted evaluation error. Thread safe
 * once built (Iceberg's evaluator keeps per-thread state).
 */
final class PartitionPruner {
  private static final Logger log = LoggerFactory.getLogger(PartitionPruner.class);

  private final Map<Integer, Optional<Evaluator>> evaluators = new HashMap<>();
  private final boolean prunes;

  /** Specs that cannot be projected are counted in {@code errors} and prune nothing. */
  PartitionPruner(
      Optional<Expression> filter,
      Schema schema,
      Map<Integer, PartitionSpec> specs,
      PruningErrors errors) {
    requireNonNull(filter, "filter is null");
    requireNonNull(schema, "schema is null");
    requireNonNull(specs, "specs is null");
    org.apache.iceberg.expressions.Expression implied =
        filter.map(IcebergFilters::toIceberg).orElse(Expressions.alwaysTrue());
    this.prunes = implied.op() != org.apache.iceberg.expressions.Expression.Operation.TRUE;
    if (!prunes) {
      return;
    }
    for (Map.Entry<Integer, PartitionSpec> entry : specs.entrySet()) {
      evaluators.put(entry.getKey(), evaluator(implied, schema, entry.getValue(), errors));
    }
  }

  private static Optional<Evaluator> evaluator(
      org.apache.iceberg.expressions.Expression implied,
      Schema schema,
      PartitionSpec spec,
      PruningErrors errors) {
    if (spec.isUnpartitioned()) {
      return Optional.empty();
    }
    try {
      PartitionSpec current = rebind(spec, schema);
      org.apache.iceberg.expressions.Expression projected =
          Projections.inclusive(current, true).project(implied);
      return Optional.of(new Evaluator(current.partitionType(), projected, true));
    } catch (RuntimeException e) {
      errors.record();
      log.debug("Cannot prune on partition spec {}: {}", spec, e.toString());
      return Optional.empty();
    }
  }

  private static PartitionSpec rebind(PartitionSpec spec, Schema schema) {
    try {
      return spec.toUnbound().bind(schema);
    } catch (RuntimeException e) {
      // A source column dropped since: keep the spec as the table metadata bound it.
      return spec;
    }
  }

  /** CANNOT_MATCH when no row of the partition can pass the filter, else MIGHT_MATCH. */
  PruneResult prune(FilePartition partition, PruningErrors errors) {
    if (!prunes) {
      return PruneResult.MIGHT_MATCH;
    }
    Optional<Evaluator> evaluator = evaluators.getOrDefault(partition.specId(), Optional.empty());
    if (evaluator.isEmpty()) {
      return PruneResult.MIGHT_MATCH;
    }
    try {
      return evaluator.get().eval(new Tuple(partition.values()))
          ? PruneResult.MIGHT_MATCH
          : PruneResult.CANNOT_MATCH;
    } catch (RuntimeException e) {
      errors.record();
      log.debug("Cannot prune partition {}: {}", partition, e.toString());
      return PruneResult.MIGHT_MATCH;
    }
  }

  /** A partition tuple as Iceberg's evaluator reads it. */
  private record Tuple(List<Object> values) implements StructLike {
    @Override
    public int size() {
      return values.size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(values.get(pos));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("Cannot modify a partition tuple");
    }
  }
}
