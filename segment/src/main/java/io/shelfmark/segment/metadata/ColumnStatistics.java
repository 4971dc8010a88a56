package io.shelfmark.segment.metadata;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.Value;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The one statistics shape for every granularity: a segment, a data file, a row group, a page.
 * Missing statistics mean "might contain anything": a pruner must read what it cannot rule out.
 *
 * @param rowCount the rows covered
 * @param nullCount how many are null, when known
 * @param min the smallest non-null value, when known (absent also when every value is null)
 * @param max the largest non-null value, when known
 */
public record ColumnStatistics(
    long rowCount, OptionalLong nullCount, Optional<Value> min, Optional<Value> max) {
  public ColumnStatistics {
    requireNonNull(nullCount, "nullCount is null");
    requireNonNull(min, "min is null");
    requireNonNull(max, "max is null");
    if (rowCount < 0
        || (nullCount.isPresent()
            && (nullCount.getAsLong() < 0 || nullCount.getAsLong() > rowCount))) {
      throw new IllegalArgumentException(
          "Cannot use statistics of %d rows with %s nulls".formatted(rowCount, nullCount));
    }
    if (min.isPresent() && max.isPresent()) {
      if (min.get().type() != max.get().type() || min.get().compareTo(max.get()) > 0) {
        throw new IllegalArgumentException(
            "Cannot use statistics with min %s above or unlike max %s"
                .formatted(min.get(), max.get()));
      }
    }
  }

  /** Statistics that say nothing but the row count. */
  public static ColumnStatistics unknown(long rowCount) {
    return new ColumnStatistics(rowCount, OptionalLong.empty(), Optional.empty(), Optional.empty());
  }

  /** Whether every row is known to be null. */
  public boolean allNull() {
    return nullCount.isPresent() && nullCount.getAsLong() == rowCount;
  }

  void writeTo(PartWriter out) {
    out.putVarLong(rowCount);
    ValueCodec.writeOptionalLong(out, nullCount);
    ValueCodec.writeOptional(out, min);
    ValueCodec.writeOptional(out, max);
  }

  static ColumnStatistics readFrom(PartReader in) throws CorruptSegmentException {
    long rowCount = in.getVarLong();
    OptionalLong nullCount = ValueCodec.readOptionalLong(in);
    Optional<Value> min = ValueCodec.readOptional(in);
    Optional<Value> max = ValueCodec.readOptional(in);
    try {
      return new ColumnStatistics(rowCount, nullCount, min, max);
    } catch (IllegalArgumentException e) {
      throw in.corrupt(e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "ColumnStatistics[rows %d, nulls %s, min %s, max %s]"
        .formatted(
            rowCount,
            nullCount.isPresent() ? Long.toString(nullCount.getAsLong()) : "?",
            min.map(Value::toString).orElse("?"),
            max.map(Value::toString).orElse("?"));
  }
}
