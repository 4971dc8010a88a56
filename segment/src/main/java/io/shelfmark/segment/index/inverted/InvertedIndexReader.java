package io.shelfmark.segment.index.inverted;

import io.shelfmark.segment.encoding.MonotoneLongs;
import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.DecodedBitmaps;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.SharedBitmap;
import io.shelfmark.segment.spi.ValueType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads an inverted index part: bitmaps are deserialized from the part on demand, one per matching
 * id, kept in the segment's {@link DecodedBitmaps} (the server's bounded bitmap cache, so repeated
 * queries decode a value's docs once), and intersected with the context. Immutable and thread safe.
 */
public final class InvertedIndexReader implements IndexReader {
  private final String segment;
  private final String partName;
  private final ValueType type;
  private final Dictionary dictionary;
  private final MonotoneLongs offsets;
  private final ByteBuffer postings;
  private final DecodedBitmaps bitmaps;
  private final IntFunction<RoaringBitmap> decoder = this::decode;
  private final long sizeInBytes;

  private InvertedIndexReader(
      ReaderContext context, Dictionary dictionary, MonotoneLongs offsets, ByteBuffer postings) {
    this.segment = context.segment();
    this.partName = context.partName();
    this.type = context.column().type();
    this.dictionary = dictionary;
    this.offsets = offsets;
    this.postings = postings;
    this.bitmaps = context.bitmaps();
    this.sizeInBytes = context.part().remaining();
  }

  static InvertedIndexReader open(ReaderContext context) throws CorruptSegmentException {
    PartReader in = context.reader();
    Dictionary dictionary =
        context
            .dictionary()
            .orElseThrow(() -> in.corrupt("inverted index without a dictionary part"));
    int cardinality = in.getVarInt();
    if (cardinality != dictionary.size()) {
      throw in.corrupt(
          "inverted index of %d values over a dictionary of %d"
              .formatted(cardinality, dictionary.size()));
    }
    MonotoneLongs offsets = MonotoneLongs.read(in);
    ByteBuffer postings = in.slice(in.remaining());
    if (offsets.count() != cardinality + 1
        || offsets.get(0) != 0
        || offsets.get(cardinality) != postings.capacity()) {
      throw in.corrupt(
          "%d posting offsets for %d values do not span the %d posting bytes"
              .formatted(offsets.count(), cardinality, postings.capacity()));
    }
    return new InvertedIndexReader(context, dictionary, offsets, postings);
  }

  /** The docs whose value has dictionary id {@code id} (a fresh bitmap). */
  public RoaringBitmap docs(int id) {
    return postings(id).copy();
  }

  /** The docs whose value has dictionary id {@code id}, shared with other queries. */
  public SharedBitmap postings(int id) {
    if (id < 0 || id >= dictionary.size()) {
      throw new IllegalArgumentException(
          "Cannot read the docs of dictionary id %d in %s: the dictionary has %d values"
              .formatted(id, partName, dictionary.size()));
    }
    return bitmaps.get(id, decoder);
  }

  private RoaringBitmap decode(int id) {
    int start = (int) offsets.get(id);
    int end = (int) offsets.get(id + 1);
    try {
      return PostingList.read(postings.slice(start, end - start));
    } catch (IOException | RuntimeException e) {
      // The part's checksum matched, so only a writer bug gets here: fail loudly, naming the part.
      throw new IllegalStateException(
          new CorruptSegmentException(
              segment, partName, -1, "posting list of id " + id + " does not parse: " + e, e));
    }
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    List<LongIntervals.Interval> intervals =
        LongIntervals.of(predicate, type, Optional.of(dictionary));
    if (intervals.size() == 1 && intervals.get(0).low() == intervals.get(0).high()) {
      // Equality, the common case: one intersection, no copy of the posting list.
      return IndexResult.exact(postings((int) intervals.get(0).low()).and(context));
    }
    RoaringBitmap union = new RoaringBitmap();
    for (LongIntervals.Interval interval : intervals) {
      for (long id = interval.low(); id <= interval.high(); id++) {
        postings((int) id).orInto(union);
      }
    }
    union.and(context);
    return IndexResult.exact(union);
  }

  @Override
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "InvertedIndexReader[" + partName + ", " + dictionary.size() + " values]";
  }
}
