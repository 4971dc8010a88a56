package io.shelfmark.segment.startree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;

/**
 * A numeric column whose aggregates a star-tree keeps per record: the count of non-null values and
 * the sum (exact 128-bit for LONG, a double for DOUBLE), and with {@code extremes} the minimum and
 * the maximum. That answers COUNT(col), SUM and AVG (sum and count) of the column, and MIN and MAX
 * when the extremes are kept (only when the config asks: they cost two values per record).
 */
public record StarTreeMetric(String column, ValueType type, boolean extremes) {
  public StarTreeMetric {
    requireNonNull(column, "column is null");
    requireNonNull(type, "type is null");
    checkArgument(type != ValueType.STRING, "Cannot aggregate string column %s", column);
  }

  /** Slots of this metric in a record's aggregate row. */
  int width() {
    return (type == ValueType.LONG ? 3 : 2) + (extremes ? 2 : 0);
  }
}
