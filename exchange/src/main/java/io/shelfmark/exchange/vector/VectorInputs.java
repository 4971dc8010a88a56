package io.shelfmark.exchange.vector;

import io.shelfmark.sql.expression.Expression;

/**
 * Where an evaluation finds the vectors of its leaves: table columns and map keys ({@code
 * ColumnRef}, {@code MapKeyRef}) over a row batch, or group keys and aggregates ({@code
 * GroupKeyRef}, {@code AggregateRef}) over finished groups.
 */
@FunctionalInterface
public interface VectorInputs {
  /**
   * The vector of {@code leaf} for the batch.
   *
   * @throws IllegalArgumentException when this batch has no such input
   */
  Vector input(Expression leaf);
}
