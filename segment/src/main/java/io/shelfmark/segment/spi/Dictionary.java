package io.shelfmark.segment.spi;

import io.shelfmark.segment.predicate.Bound;
import java.util.Optional;
import java.util.function.ObjIntConsumer;

/**
 * A column's sorted dictionary: its distinct non-null values in {@link Value} order, numbered from
 * 0. Ids are what inverted and forward indexes store, so GROUP BY can aggregate on ids and turn
 * them into values at the end.
 *
 * <p>Thread safety: readers are immutable and safe for concurrent use.
 */
public interface Dictionary {
  ValueType type();

  /** The number of distinct values. */
  int size();

  /**
   * The id of {@code value}, or {@code -(insertionPoint) - 1} when absent, as {@link
   * java.util.Arrays#binarySearch} reports.
   *
   * @throws IllegalArgumentException when the value's type is not the dictionary's
   */
  int indexOf(Value value);

  /** The value of {@code id}. */
  Value value(int id);

  /** The value of {@code id} of a LONG dictionary, without boxing. */
  long longValue(int id);

  /** The value of {@code id} of a DOUBLE dictionary, without boxing. */
  double doubleValue(int id);

  /** The UTF-8 bytes of {@code id} of a STRING dictionary (a fresh array). */
  byte[] bytes(int id);

  /**
   * Calls {@code action} with every id's UTF-8 bytes (a STRING dictionary), in id order. The array
   * is the callee's: it may be reused or changed after the call returns. Faster than {@link #bytes}
   * id by id when values are stored in blocks that must be walked from their start.
   */
  default void forEachBytes(ObjIntConsumer<byte[]> action) {
    for (int id = 0; id < size(); id++) {
      action.accept(bytes(id), id);
    }
  }

  /** The bytes this dictionary occupies in the segment. */
  long sizeInBytes();

  /** The ids whose values lie between the bounds (each optional, meaning unbounded). */
  default IdRange idRange(Optional<Bound> lower, Optional<Bound> upper) {
    int first = 0;
    int last = size() - 1;
    if (lower.isPresent()) {
      int found = indexOf(lower.get().value());
      first = found >= 0 ? (lower.get().inclusive() ? found : found + 1) : -found - 1;
    }
    if (upper.isPresent()) {
      int found = indexOf(upper.get().value());
      last = found >= 0 ? (upper.get().inclusive() ? found : found - 1) : -found - 2;
    }
    return first <= last ? new IdRange(first, last) : IdRange.EMPTY;
  }
}
