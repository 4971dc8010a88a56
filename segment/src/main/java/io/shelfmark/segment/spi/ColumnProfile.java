package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What the segment builder learned about a column's values before creating its indexes.
 *
 * @param docCount the number of docs (the segment's)
 * @param nullCount how many of them are null
 * @param min the smallest non-null value, empty when every value is null
 * @param max the largest non-null value, empty when every value is null
 * @param sorted whether the non-null values never decrease in doc-id order and the nulls, if any,
 *     all come first ({@code leadingNulls}) or last ({@code trailingNulls}) or both
 * @param leadingNulls when sorted, the number of null docs before the first non-null one
 * @param trailingNulls when sorted, the number of null docs after the last non-null one
 */
public record ColumnProfile(
    int docCount,
    int nullCount,
    Optional<Value> min,
    Optional<Value> max,
    boolean sorted,
    int leadingNulls,
    int trailingNulls) {
  public ColumnProfile {
    requireNonNull(min, "min is null");
    requireNonNull(max, "max is null");
    if (docCount < 0 || nullCount < 0 || nullCount > docCount) {
      throw new IllegalArgumentException(
          "Cannot profile a column of %d docs with %d nulls".formatted(docCount, nullCount));
    }
    if (min.isPresent() != (nullCount < docCount) || max.isPresent() != min.isPresent()) {
      throw new IllegalArgumentException(
          "Cannot profile a column of %d docs, %d nulls with min %s and max %s (min and max are present exactly when some value is not null)"
              .formatted(docCount, nullCount, min, max));
    }
    if (sorted && leadingNulls + trailingNulls != nullCount) {
      throw new IllegalArgumentException(
          "Cannot profile a sorted column with %d nulls as %d leading and %d trailing"
              .formatted(nullCount, leadingNulls, trailingNulls));
    }
  }

  /** The number of docs with a value. */
  public int nonNullCount() {
    return docCount - nullCount;
  }
}
