/**
 * Pruning on metadata before any I/O: which data files ({@link
 * io.shelfmark.broker.prune.FilePruner}) and which row groups of a file ({@link
 * io.shelfmark.broker.prune.RowGroupPruner}) a query can skip.
 *
 * <pre>
 *   QueryPlan.filter (normalised: no NOT, flat AND/OR)
 *     ├─ IcebergFilters → implied Iceberg expression → Projections.inclusive(spec) → Evaluator
 *     │                    on the file's partition tuple (identity, bucket, truncate, year/month/
 *     │                    day/hour; specs rebound to the current schema)          → CANNOT | MIGHT
 *     └─ StatisticsEvaluator over PruningStatistics (ColumnStatistics per column: rows, nulls,
 *                          min, max) from a segment, the Iceberg manifest's bounds
 *                          (IcebergStatistics) or a Parquet footer (ParquetStatistics)
 *                                                                     → CANNOT | MIGHT | ALL
 * </pre>
 *
 * Every rule is conservative (a unit is skipped only when no row can pass) and follows SQL's
 * three-valued logic; each carries its proof in a comment. Missing statistics mean read; an
 * evaluation failure keeps the unit and is counted ({@link
 * io.shelfmark.broker.prune.PruningErrors}).
 *
 * <p>This package depends only on {@code sql}, {@code segment}, {@code catalog}, iceberg-api and
 * parquet-format-structures, never on the broker's HTTP or routing code, so the server (which must
 * not depend on the broker) can use {@code RowGroupPruner} once the package moves to a module both
 * share.
 *
 * <p>Not done: DECIMAL and BINARY columns are never pruned on statistics (no value domain), FLOAT
 * and DOUBLE columns never on partitions, map keys only on segment statistics; page-level pruning
 * (column indexes) is the server's.
 */
package io.shelfmark.broker.prune;
