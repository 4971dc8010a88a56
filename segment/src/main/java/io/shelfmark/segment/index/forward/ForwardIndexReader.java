package io.shelfmark.segment.index.forward;

import io.shelfmark.segment.encoding.BitPacking;
import io.shelfmark.segment.encoding.PackedLongs;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.ValueType;
import java.util.List;
import java.util.Optional;
import org.roaringbitmap.PeekableIntIterator;
import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.RoaringBitmapWriter;

/**
 * Reads each doc's dictionary id. The server's GROUP BY reads ids of the matching docs with {@link
 * #dictionaryIds(int[], int, int[])} and aggregates into arrays indexed by id. Immutable and thread
 * safe.
 */
public final class ForwardIndexReader implements IndexReader {
  private final ValueType type;
  private final Dictionary dictionary;
  private final PackedLongs ids;
  private final long sizeInBytes;

  private ForwardIndexReader(ReaderContext context, Dictionary dictionary, PackedLongs ids) {
    this.type = context.column().type();
    this.dictionary = dictionary;
    this.ids = ids;
    this.sizeInBytes = context.part().remaining();
  }

  static ForwardIndexReader open(ReaderContext context) throws CorruptSegmentException {
    PartReader in = context.reader();
    Dictionary dictionary =
        context
            .dictionary()
            .orElseThrow(() -> in.corrupt("forward index without a dictionary part"));
    int docCount = in.getVarInt();
    int cardinality = in.getVarInt();
    int width = in.getByte();
    if (docCount != context.docCount()
        || cardinality != dictionary.size()
        || width != BitPacking.bitWidth(cardinality)) {
      throw in.corrupt(
          "forward index of %d docs, %d values, %d bits; expected %d docs, %d values"
              .formatted(docCount, cardinality, width, context.docCount(), dictionary.size()));
    }
    PackedLongs ids =
        new PackedLongs(in.slice(BitPacking.wordCount(docCount, width) * 8), docCount, width);
    in.expectEnd();
    return new ForwardIndexReader(context, dictionary, ids);
  }

  /** The column's dictionary: ids to values. */
  public Dictionary dictionary() {
    return dictionary;
  }

  /** The id null docs have: one past the last value's. */
  public int nullId() {
    return dictionary.size();
  }

  /** The dictionary id of {@code doc} ({@link #nullId()} when null). */
  public int dictionaryId(int doc) {
    return (int) ids.get(doc);
  }

  /** The ids of {@code count} docs from {@code docs[0]}, in order, into {@code out}. */
  public void dictionaryIds(int[] docs, int count, int[] out) {
    for (int i = 0; i < count; i++) {
      out[i] = (int) ids.get(docs[i]);
    }
  }

  /** The ids of docs {@code firstDoc .. firstDoc + count - 1} into {@code out}. */
  public void dictionaryIds(int firstDoc, int count, int[] out) {
    ids.getInts(firstDoc, count, out, 0);
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    List<LongIntervals.Interval> intervals =
        LongIntervals.of(predicate, type, Optional.of(dictionary));
    if (intervals.isEmpty()) {
      return IndexResult.none();
    }
    boolean[] matching = new boolean[dictionary.size()];
    for (LongIntervals.Interval interval : intervals) {
      for (long id = interval.low(); id <= interval.high(); id++) {
        matching[(int) id] = true;
      }
    }
    int nullId = nullId();
    RoaringBitmapWriter<RoaringBitmap> result = RoaringBitmapWriter.writer().get();
    PeekableIntIterator docs = context.getIntIterator();
    while (docs.hasNext()) {
      int doc = docs.next();
      int id = (int) ids.get(doc);
      if (id != nullId && matching[id]) {
        result.add(doc);
      }
    }
    return IndexResult.exact(result.get());
  }

  @Override
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "ForwardIndexReader[" + ids.count() + " docs, " + ids.width() + " bits]";
  }
}
