package io.shelfmark.exchange.vector;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shelfmark.sql.expression.InList;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.expression.ValueOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The non-null items of an {@code IN} list, sorted once so that each row (or dictionary entry) is
 * tested with one binary search. Testing item by item cost one equality vector per item per batch:
 * 50,000 strings made 50,000 vectors of a batch's size (1.6 GB for one batch of 4,096 rows) and
 * took the heap to OutOfMemoryError; 1,000 items cost about 50 µs per item per batch.
 *
 * <p>Sorted with the order equality is decided by ({@link Values#compare}, {@link
 * ValueOrder#compareFloating} for floating values), so "found by the search" is exactly "equal to
 * an item" as the item-by-item comparison decided it. Immutable and thread safe.
 */
final class InItems {
  private static final Comparator<Object> OBJECT_ORDER = Values::compare;

  /**
   * Sorted items by list, held weakly (identity): a plan's list is evaluated batch after batch, and
   * sorting 50,000 strings per batch would cost more than the search saves.
   */
  private static final Cache<InList, InItems> SORTED = Caffeine.newBuilder().weakKeys().build();

  private final List<Object> items;
  private volatile long[] longs;
  private volatile double[] doubles;
  private volatile Object[] objects;

  private InItems(List<Object> items) {
    this.items = items;
  }

  /** The sorted items of {@code in}, kept while the list is alive. */
  static InItems of(InList in) {
    return SORTED.get(in, InItems::from);
  }

  private static InItems from(InList in) {
    List<Object> items = new ArrayList<>(in.items().size());
    for (Literal item : in.items()) {
      if (!item.isNull()) {
        items.add(item.value());
      }
    }
    return new InItems(items);
  }

  /** Whether a value of a long-typed vector equals an item. */
  boolean containsLong(long value) {
    long[] sorted = longs;
    if (sorted == null) {
      sorted = new long[items.size()];
      for (int i = 0; i < sorted.length; i++) {
        sorted[i] = Values.toLong(items.get(i));
      }
      Arrays.sort(sorted);
      longs = sorted;
    }
    return Arrays.binarySearch(sorted, value) >= 0;
  }

  /** Whether a value of a floating vector equals an item (NaN equals NaN, as in comparisons). */
  boolean containsDouble(double value) {
    double[] sorted = doubles;
    if (sorted == null) {
      Double[] boxed = new Double[items.size()];
      for (int i = 0; i < boxed.length; i++) {
        boxed[i] = ((Number) items.get(i)).doubleValue();
      }
      Arrays.sort(boxed, ValueOrder::compareFloating);
      sorted = new double[boxed.length];
      for (int i = 0; i < boxed.length; i++) {
        sorted[i] = boxed[i];
      }
      doubles = sorted;
    }
    int low = 0;
    int high = sorted.length - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order = ValueOrder.compareFloating(sorted[middle], value);
      if (order < 0) {
        low = middle + 1;
      } else if (order > 0) {
        high = middle - 1;
      } else {
        return true;
      }
    }
    return false;
  }

  /** Whether a non-null value of any other type equals an item. */
  boolean containsObject(Object value) {
    Object[] sorted = objects;
    if (sorted == null) {
      sorted = items.toArray();
      Arrays.sort(sorted, OBJECT_ORDER);
      objects = sorted;
    }
    return Arrays.binarySearch(sorted, value, OBJECT_ORDER) >= 0;
  }

  /** How many non-null items the list has. */
  int size() {
    return items.size();
  }
}
