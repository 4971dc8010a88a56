package io.shelfmark.segment.startree;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;

/**
 * A column whose distinct values a star-tree keeps per record as a DataSketches HyperLogLog sketch
 * (HLL_4 of {@code lgK}), for DISTINCTCOUNTHLL: records are unioned at star nodes and rolled-up
 * records, and a query unions the sketches of the records it visits. Values are hashed as the
 * server's row path hashes them, so that a union over records equals a sketch over the rows: a LONG
 * as the number, a DOUBLE as the raw bits of its canonical value (-0.0 as 0.0, one NaN), a STRING
 * as its UTF-8 bytes (the empty string as {@link Long#MIN_VALUE}, which the library would otherwise
 * ignore).
 */
public record StarTreeSketch(String column, ValueType type, int lgK) {
  /** The precision of the SQL function DISTINCTCOUNTHLL (and the only one a tree builds today). */
  public static final int DEFAULT_LG_K = 12;

  public StarTreeSketch {
    requireNonNull(column, "column is null");
    requireNonNull(type, "type is null");
    checkArgument(
        lgK >= 4 && lgK <= 21, "Cannot sketch column %s with lgK %s (4 to 21)", column, lgK);
  }

  /** The value a DOUBLE sketch column hashes: the raw bits of the canonical double. */
  public static long canonicalBits(double value) {
    return Double.doubleToLongBits(value == 0.0 ? 0.0 : value);
  }
}
