package io.shelfmark.segment.index.sorted;

import io.shelfmark.segment.encoding.MonotoneLongs;
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
import org.roaringbitmap.RoaringBitmap;

/**
 * Answers comparisons on a sorted column as doc ranges, and reads docs' values back from the runs
 * (the column's forward index for free). Immutable and thread safe.
 */
public final class SortedIndexReader implements IndexReader {
  private static final int RECENT_LOOKUPS = 4;

  private final ValueType type;
  private final int domain;
  private final Optional<Dictionary> dictionary;
  private final int leadingNulls;
  private final int runs;
  private final MonotoneLongs runValues;
  private final MonotoneLongs runStarts;
  private final long sizeInBytes;
  // The last few intervals looked up and their docs, newest first: a dashboard repeats its time
  // range (often as two one-sided bounds), and the binary searches over the run values cost more
  // than the rest of the evaluation. Replaced whole, never modified: safe to read without a lock.
  private volatile Lookup[] recent = new Lookup[0];

  private SortedIndexReader(
      ReaderContext context,
      int domain,
      int leadingNulls,
      int runs,
      MonotoneLongs runValues,
      MonotoneLongs runStarts) {
    this.type = context.column().type();
    this.domain = domain;
    this.dictionary = context.dictionary();
    this.leadingNulls = leadingNulls;
    this.runs = runs;
    this.runValues = runValues;
    this.runStarts = runStarts;
    this.sizeInBytes = context.part().remaining();
  }

  static SortedIndexReader open(ReaderContext context) throws CorruptSegmentException {
    PartReader in = context.reader();
    int domain = in.getByte();
    int leadingNulls = in.getVarInt();
    int trailingNulls = in.getVarInt();
    int runs = in.getVarInt();
    MonotoneLongs values = null;
    switch (domain) {
      case SortedIndexType.DOMAIN_LONG, SortedIndexType.DOMAIN_DOUBLE -> {
        ValueType expected =
            domain == SortedIndexType.DOMAIN_LONG ? ValueType.LONG : ValueType.DOUBLE;
        if (context.column().type() != expected) {
          throw in.corrupt(
              "sorted index of %s values on a %s column"
                  .formatted(expected, context.column().type()));
        }
        values = MonotoneLongs.read(in);
        if (values.count() != runs) {
          throw in.corrupt("%d run values for %d runs".formatted(values.count(), runs));
        }
      }
      case SortedIndexType.DOMAIN_DICTIONARY_IDS -> {
        if (context.dictionary().isEmpty() || context.dictionary().get().size() != runs) {
          throw in.corrupt(
              "sorted index of %d runs over dictionary ids, but the dictionary has %s values"
                  .formatted(
                      runs,
                      context.dictionary().map(d -> Integer.toString(d.size())).orElse("no")));
        }
      }
      default -> throw in.corrupt("unknown sorted index domain " + domain);
    }
    int startsMode = in.getByte();
    MonotoneLongs starts;
    long nonNull = (long) context.docCount() - leadingNulls - trailingNulls;
    if (startsMode == SortedIndexType.STARTS_IDENTITY) {
      if (runs != nonNull) {
        throw in.corrupt("%d runs of one doc each for %d non-null docs".formatted(runs, nonNull));
      }
      starts = null;
    } else if (startsMode == SortedIndexType.STARTS_LISTED) {
      starts = MonotoneLongs.read(in);
    } else {
      throw in.corrupt("unknown run starts mode " + startsMode);
    }
    in.expectEnd();
    if (starts != null
        && (starts.count() != runs + 1
            || nonNull < 0
            || starts.get(0) != 0
            || starts.get(runs) != nonNull)) {
      throw in.corrupt(
          "run starts do not tile %d non-null docs between %d leading and %d trailing nulls"
              .formatted(nonNull, leadingNulls, trailingNulls));
    }
    return new SortedIndexReader(context, domain, leadingNulls, runs, values, starts);
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    LongIntervals.checkType(predicate, type);
    Optional<Dictionary> domainDictionary =
        domain == SortedIndexType.DOMAIN_DICTIONARY_IDS ? dictionary : Optional.empty();
    List<LongIntervals.Interval> intervals = LongIntervals.of(predicate, type, domainDictionary);
    RoaringBitmap docs = new RoaringBitmap();
    for (LongIntervals.Interval interval : intervals) {
      Lookup lookup = recent(interval.low(), interval.high());
      if (lookup.firstDoc < lookup.endDoc) {
        docs.add(lookup.firstDoc, lookup.endDoc);
      }
    }
    docs.and(context);
    return IndexResult.exact(docs);
  }

  private Lookup recent(long low, long high) {
    Lookup[] known = recent;
    for (Lookup lookup : known) {
      if (lookup.low == low && lookup.high == high) {
        return lookup;
      }
    }
    Lookup made = lookup(low, high);
    Lookup[] updated = new Lookup[Math.min(RECENT_LOOKUPS, known.length + 1)];
    updated[0] = made;
    System.arraycopy(known, 0, updated, 1, updated.length - 1);
    recent = updated;
    return made;
  }

  /** The docs {@code [firstDoc, endDoc)} whose values lie in {@code [low, high]}. */
  private Lookup lookup(long low, long high) {
    int firstRun;
    int endRun;
    if (runValues == null) {
      firstRun = (int) Math.max(0, low);
      endRun = (int) Math.min(runs, high + 1);
    } else {
      firstRun = runValues.lowerBound(low);
      endRun = runValues.upperBound(high);
    }
    if (firstRun >= endRun) {
      return new Lookup(low, high, 0, 0);
    }
    return new Lookup(
        low, high, (long) leadingNulls + start(firstRun), (long) leadingNulls + start(endRun));
  }

  private record Lookup(long low, long high, long firstDoc, long endDoc) {}

  private long start(int run) {
    return runStarts == null ? run : runStarts.get(run);
  }

  /**
   * Each doc's value, read back from the runs: a sorted column needs no forward index, since its
   * values are the runs' values in doc order. For LONG columns (values, or dictionary ids turned
   * into values); {@code nulls[i]} is set for null docs and {@code out[i]} is then 0. Docs in
   * ascending order cost one step per doc; any order is answered, by binary searches.
   */
  public void longValues(int[] docs, int count, long[] out, boolean[] nulls) {
    requireValueType(ValueType.LONG);
    int[] runOf = new int[count];
    runs(docs, count, runOf);
    if (domain == SortedIndexType.DOMAIN_DICTIONARY_IDS) {
      // Runs are long (docs per value): look each value up once per run, not once per doc.
      Dictionary values = dictionary.orElseThrow();
      int lastRun = -1;
      long lastValue = 0;
      for (int i = 0; i < count; i++) {
        int run = runOf[i];
        nulls[i] = run < 0;
        if (run >= 0 && run != lastRun) {
          lastRun = run;
          lastValue = values.longValue(run);
        }
        out[i] = run < 0 ? 0 : lastValue;
      }
      return;
    }
    BlockCursor values = new BlockCursor(runValues);
    for (int i = 0; i < count; i++) {
      int run = runOf[i];
      nulls[i] = run < 0;
      out[i] = run < 0 ? 0 : values.get(run);
    }
  }

  /** As {@link #longValues} for DOUBLE columns. */
  public void doubleValues(int[] docs, int count, double[] out, boolean[] nulls) {
    requireValueType(ValueType.DOUBLE);
    int[] runOf = new int[count];
    runs(docs, count, runOf);
    Dictionary values = dictionary.orElse(null);
    BlockCursor sortable = values == null ? new BlockCursor(runValues) : null;
    int lastRun = -1;
    double lastValue = 0;
    for (int i = 0; i < count; i++) {
      int run = runOf[i];
      nulls[i] = run < 0;
      if (run < 0) {
        out[i] = 0;
      } else if (values == null) {
        out[i] = Value.fromSortableBits(sortable.get(run));
      } else {
        if (run != lastRun) {
          lastRun = run;
          lastValue = values.doubleValue(run);
        }
        out[i] = lastValue;
      }
    }
  }

  /**
   * Each doc's dictionary id, {@code -1} for null docs; only when the index runs over dictionary
   * ids ({@link #hasDictionary()}).
   */
  public void dictionaryIds(int[] docs, int count, int[] out) {
    if (domain != SortedIndexType.DOMAIN_DICTIONARY_IDS) {
      throw new IllegalStateException("Cannot read dictionary ids of " + this + ": it has none");
    }
    runs(docs, count, out);
  }

  /** Whether the runs are dictionary ids (the column has a dictionary). */
  public boolean hasDictionary() {
    return domain == SortedIndexType.DOMAIN_DICTIONARY_IDS;
  }

  /** The column's dictionary, when the runs are its ids. */
  public Optional<Dictionary> dictionary() {
    return hasDictionary() ? dictionary : Optional.empty();
  }

  private void requireValueType(ValueType wanted) {
    if (type != wanted) {
      throw new IllegalStateException(
          "Cannot read %s values of %s column: %s".formatted(wanted, type, this));
    }
  }

  /** The run of each doc, {@code -1} for a null doc. */
  private void runs(int[] docs, int count, int[] out) {
    long nonNull = runStarts == null ? runs : runStarts.get(runs);
    if (runStarts == null) {
      for (int i = 0; i < count; i++) {
        long position = (long) docs[i] - leadingNulls;
        out[i] = position < 0 || position >= nonNull ? -1 : (int) position;
      }
      return;
    }
    BlockCursor starts = new BlockCursor(runStarts);
    int run = 0;
    long runStart = 0;
    long runEnd = starts.get(1);
    for (int i = 0; i < count; i++) {
      long position = (long) docs[i] - leadingNulls;
      if (position < 0 || position >= nonNull) {
        out[i] = -1;
        continue;
      }
      if (position < runStart || position >= runEnd) {
        // A few runs ahead: step; farther or behind: search. Run starts strictly increase.
        int steps = 0;
        while (position >= runEnd && position >= runStart && steps++ < 8) {
          run++;
          runStart = runEnd;
          runEnd = starts.get(run + 1);
        }
        if (position < runStart || position >= runEnd) {
          run = runStarts.upperBound(position) - 1;
          runStart = starts.get(run);
          runEnd = starts.get(run + 1);
        }
      }
      out[i] = run;
    }
  }

  /**
   * Random access to a {@link MonotoneLongs} that decodes each block once while reads stay in it.
   */
  private static final class BlockCursor {
    private final MonotoneLongs values;
    private final long[] block = new long[MonotoneLongs.BLOCK];
    private final long[] words = new long[MonotoneLongs.BLOCK];
    private int decoded = -1;

    BlockCursor(MonotoneLongs values) {
      this.values = values;
    }

    long get(int index) {
      int wanted = index / MonotoneLongs.BLOCK;
      if (wanted != decoded) {
        values.decodeBlock(wanted, block, words);
        decoded = wanted;
      }
      return block[index - wanted * MonotoneLongs.BLOCK];
    }
  }

  /** The number of distinct values (runs). */
  public int runCount() {
    return runs;
  }

  @Override
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "SortedIndexReader[" + runs + " runs]";
  }
}
