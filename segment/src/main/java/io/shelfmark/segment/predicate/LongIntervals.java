package io.shelfmark.segment.predicate;

import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IdRange;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Turns a comparison into inclusive intervals of a long domain in which value order is signed long
 * order: dictionary ids when the column has a dictionary, else the LONG values themselves or the
 * {@link Value#sortableBits} of DOUBLE values. Indexes that store such longs (range, sorted) answer
 * every comparison as a union of these intervals.
 */
public final class LongIntervals {
  private LongIntervals() {}

  /**
   * An inclusive interval {@code low..high} of the domain; never empty.
   *
   * @param low the first value in the interval
   * @param high the last value in the interval
   */
  public record Interval(long low, long high) {
    public Interval {
      if (low > high) {
        throw new IllegalArgumentException("Cannot build an empty interval " + low + ".." + high);
      }
    }
  }

  /**
   * The sorted, disjoint intervals matching {@code predicate} on a column of {@code columnType}; an
   * empty list when nothing can match.
   *
   * @param dictionary the column's dictionary: when present, the domain is its ids
   * @throws IllegalArgumentException when the literals are not of the column's type, or a STRING
   *     column has no dictionary
   */
  public static List<Interval> of(
      ColumnPredicate predicate, ValueType columnType, Optional<Dictionary> dictionary) {
    checkType(predicate, columnType);
    if (dictionary.isEmpty() && columnType == ValueType.STRING) {
      throw new IllegalArgumentException(
          "Cannot map STRING comparison " + predicate + " to longs without a dictionary");
    }
    return switch (predicate) {
      case Eq eq -> point(eq.value(), dictionary);
      case In in -> points(in, dictionary);
      case Range range -> range(range, dictionary);
    };
  }

  /** Fails unless the literals of {@code predicate} are of {@code columnType}. */
  public static void checkType(ColumnPredicate predicate, ValueType columnType) {
    if (predicate.valueType() != columnType) {
      throw new IllegalArgumentException(
          "Cannot compare %s column %s with %s literals in %s (cast the literal to %s)"
              .formatted(
                  columnType, predicate.column(), predicate.valueType(), predicate, columnType));
    }
  }

  private static List<Interval> point(Value value, Optional<Dictionary> dictionary) {
    if (dictionary.isPresent()) {
      int id = dictionary.get().indexOf(value);
      return id < 0 ? List.of() : List.of(new Interval(id, id));
    }
    long domain = toDomain(value);
    return List.of(new Interval(domain, domain));
  }

  /**
   * The list's points as intervals, adjacent points merged ({@code IN (3, 4, 5)} is one interval):
   * with a dictionary, its ids matched once ({@link DictionaryMatch}); without, the values
   * themselves, whose domain order is their {@link In} order.
   */
  private static List<Interval> points(In in, Optional<Dictionary> dictionary) {
    if (dictionary.isPresent()) {
      int[] ids = DictionaryMatch.ids(dictionary.get(), in.values());
      long[] domains = new long[ids.length];
      for (int i = 0; i < ids.length; i++) {
        domains[i] = ids[i];
      }
      return merged(domains);
    }
    long[] domains = new long[in.values().size()];
    for (int i = 0; i < domains.length; i++) {
      domains[i] = toDomain(in.values().get(i));
    }
    return merged(domains);
  }

  /** Ascending distinct points as intervals, runs of consecutive points merged. */
  private static List<Interval> merged(long[] ascending) {
    List<Interval> intervals = new ArrayList<>();
    int i = 0;
    while (i < ascending.length) {
      long low = ascending[i];
      long high = low;
      i++;
      while (i < ascending.length && high != Long.MAX_VALUE && ascending[i] == high + 1) {
        high = ascending[i];
        i++;
      }
      intervals.add(new Interval(low, high));
    }
    return intervals;
  }

  private static List<Interval> range(Range range, Optional<Dictionary> dictionary) {
    if (dictionary.isPresent()) {
      IdRange ids = dictionary.get().idRange(range.lower(), range.upper());
      return ids.isEmpty() ? List.of() : List.of(new Interval(ids.first(), ids.last()));
    }
    long low = Long.MIN_VALUE;
    long high = Long.MAX_VALUE;
    if (range.lower().isPresent()) {
      Bound lower = range.lower().get();
      long domain = toDomain(lower.value());
      if (!lower.inclusive()) {
        if (domain == Long.MAX_VALUE) {
          return List.of();
        }
        domain++;
      }
      low = domain;
    }
    if (range.upper().isPresent()) {
      Bound upper = range.upper().get();
      long domain = toDomain(upper.value());
      if (!upper.inclusive()) {
        if (domain == Long.MIN_VALUE) {
          return List.of();
        }
        domain--;
      }
      high = domain;
    }
    return low <= high ? List.of(new Interval(low, high)) : List.of();
  }

  /** The domain long of a LONG or DOUBLE value (no dictionary). */
  public static long toDomain(Value value) {
    return switch (value) {
      case Value.LongValue(long v) -> v;
      case Value.DoubleValue(double v) -> Value.sortableBits(v);
      case Value.StringValue s ->
          throw new IllegalArgumentException(
              "Cannot map STRING " + s + " to a long without a dictionary");
    };
  }
}
