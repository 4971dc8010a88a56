package io.shelfmark.segment.index.range;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.RangeBitmap;
import org.roaringbitmap.RoaringBitmap;

/**
 * Answers comparisons with a memory-mapped {@link RangeBitmap}: each comparison becomes intervals
 * of the stored domain, clamped to the segment's values, shifted by the base and evaluated within
 * the context. Immutable and thread safe.
 */
public final class RangeIndexReader implements IndexReader {
  private final ValueType type;
  private final int mode;
  private final long base;
  private final long maxRelative;
  private final boolean nullsEncoded;
  private final Optional<Dictionary> dictionary;
  private final RoaringBitmap nulls;
  private final RangeBitmap bitmap;
  private final long sizeInBytes;

  private RangeIndexReader(
      ReaderContext context,
      int mode,
      long base,
      long maxRelative,
      boolean nullsEncoded,
      RangeBitmap bitmap) {
    this.type = context.column().type();
    this.mode = mode;
    this.base = base;
    this.maxRelative = maxRelative;
    this.nullsEncoded = nullsEncoded;
    this.dictionary = context.dictionary();
    this.nulls = context.nulls();
    this.bitmap = bitmap;
    this.sizeInBytes = context.part().remaining();
  }

  static RangeIndexReader open(ReaderContext context) throws CorruptSegmentException {
    PartReader in = context.reader();
    int mode = in.getByte();
    long base = in.getLong();
    long maxRelative = in.getLong();
    boolean nullsEncoded = in.getByte() == 1;
    int length = in.getVarInt();
    RangeBitmap bitmap = null;
    switch (mode) {
      case RangeIndexType.MODE_EMPTY -> {
        if (length != 0) {
          throw in.corrupt("empty range index with %d bitmap bytes".formatted(length));
        }
      }
      case RangeIndexType.MODE_VALUES, RangeIndexType.MODE_DICTIONARY_IDS -> {
        if (mode == RangeIndexType.MODE_DICTIONARY_IDS
            && (context.dictionary().isEmpty()
                || maxRelative != context.dictionary().get().size() - 1)) {
          throw in.corrupt(
              "range index over dictionary ids up to %d, but the dictionary has %s values"
                  .formatted(
                      maxRelative,
                      context.dictionary().map(d -> Integer.toString(d.size())).orElse("no")));
        }
        if (mode == RangeIndexType.MODE_VALUES && context.column().type() == ValueType.STRING) {
          throw in.corrupt("range index over STRING values without dictionary ids");
        }
        try {
          bitmap = RangeBitmap.map(in.slice(length));
        } catch (RuntimeException e) {
          throw in.corrupt("range bitmap does not parse: " + e.getMessage(), e);
        }
      }
      default -> throw in.corrupt("unknown range index mode " + mode);
    }
    in.expectEnd();
    return new RangeIndexReader(context, mode, base, maxRelative, nullsEncoded, bitmap);
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    LongIntervals.checkType(predicate, type);
    if (bitmap == null) {
      return IndexResult.none();
    }
    Optional<Dictionary> domainDictionary =
        mode == RangeIndexType.MODE_DICTIONARY_IDS ? dictionary : Optional.empty();
    List<LongIntervals.Interval> intervals = LongIntervals.of(predicate, type, domainDictionary);
    // Without nulls to leave out, the context itself is the scope: no copy of it.
    RoaringBitmap scope =
        nullsEncoded || nulls.isEmpty() ? context : RoaringBitmap.andNot(context, nulls);
    long max = base + maxRelative;
    RoaringBitmap result = new RoaringBitmap();
    for (LongIntervals.Interval interval : intervals) {
      // Clamp to the stored values, in the signed domain, before shifting to unsigned offsets.
      long low = Math.max(interval.low(), base);
      long high = Math.min(interval.high(), max);
      if (low > high) {
        continue;
      }
      RoaringBitmap matches = bitmap.between(low - base, high - base, scope);
      if (intervals.size() == 1) {
        return IndexResult.exact(matches);
      }
      result.or(matches);
    }
    return IndexResult.exact(result);
  }

  /**
   * The least non-null value among {@code docs}, or empty when they hold none: a binary search over
   * the stored domain, each step one {@code lteCardinality} pass over the slices (about the bit
   * width's number of steps), so the answer costs no per-doc work whatever the number of docs.
   */
  public Optional<Value> min(RoaringBitmap docs) {
    return extreme(docs, false);
  }

  /** The greatest non-null value among {@code docs}, or empty; see {@link #min}. */
  public Optional<Value> max(RoaringBitmap docs) {
    return extreme(docs, true);
  }

  private Optional<Value> extreme(RoaringBitmap docs, boolean max) {
    if (bitmap == null) {
      return Optional.empty();
    }
    // Null docs hold 0 or maxRelative + 1: out of the search either way.
    RoaringBitmap scope = nulls.isEmpty() ? docs : RoaringBitmap.andNot(docs, nulls);
    if (scope.isEmpty()) {
      return Optional.empty();
    }
    // Relative values are unsigned: low..high in unsigned order; the answer lies in low..high.
    long low = 0;
    long high = maxRelative;
    while (low != high) {
      long middle = low + ((high - low) >>> 1);
      if (max) {
        // Some doc above middle: the max is above it.
        if (bitmap.gtCardinality(middle, scope) > 0) {
          low = middle + 1;
        } else {
          high = middle;
        }
      } else if (bitmap.lteCardinality(middle, scope) > 0) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    return Optional.of(value(low));
  }

  private Value value(long relative) {
    if (mode == RangeIndexType.MODE_DICTIONARY_IDS) {
      return dictionary.orElseThrow().value((int) relative);
    }
    long domain = base + relative;
    return type == ValueType.DOUBLE ? Value.of(Value.fromSortableBits(domain)) : Value.of(domain);
  }

  @Override
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "RangeIndexReader[mode %d, base %d, max relative %s]"
        .formatted(mode, base, Long.toUnsignedString(maxRelative));
  }
}
