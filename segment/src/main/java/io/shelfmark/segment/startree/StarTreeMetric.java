package io.shelfmark.segment.startree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;

/**
 * A numeric column whose aggregates a star-tree keeps per record: the count of non-null values, the
 * sum (exact 128-bit for LONG, a double for DOUBLE), the minimum and the maximum. That answers
 * COUNT(col), SUM, AVG (sum and count), MIN and MAX of the column.
 */
public record StarTreeMetric(String column, ValueType type) {
  public StarTreeMetric {
    requireNonNull(column, "column is null");
    requireNonNull(type, "type is null");
    checkArgument(type != ValueType.STRING, "Cannot aggregate string column %s", column);
  }

  /** Slots of this metric in a record's aggregate row. */
  int width() {
    return type == ValueType.LONG ? 5 : 4;
  }
}
