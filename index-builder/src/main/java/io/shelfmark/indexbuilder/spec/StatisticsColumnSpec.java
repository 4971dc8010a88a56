package io.shelfmark.indexbuilder.spec;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;

/**
 * A primitive table column without indexes whose per-file and per-row-group minimum, maximum and
 * null count are copied from the Parquet footer into the segment, so the broker can prune on it.
 *
 * @param name the column's current name in the table schema
 * @param fieldId the Iceberg field id
 * @param type the segment value type of its statistics
 */
public record StatisticsColumnSpec(String name, int fieldId, ValueType type) {
  public StatisticsColumnSpec {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
  }
}
