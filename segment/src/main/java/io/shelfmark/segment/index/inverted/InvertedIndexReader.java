package io.shelfmark.segment.index.inverted;

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
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads an inverted index part: bitmaps are deserialized from the part on demand, one per matching
 * id, and intersected with the context. Immutable and thread safe.
 */
public final class InvertedIndexReader implements IndexReader {
  private final String segment;
  private final String partName;
  private final ValueType type;
  private final Dictionary dictionary;
  private final ByteBuffer offsets;
  private final ByteBuffer bitmaps;
  private final long sizeInBytes;

  private InvertedIndexReader(
      ReaderContext context, Dictionary dictionary, ByteBuffer offsets, ByteBuffer bitmaps) {
    this.segment = context.segment();
    this.partName = context.partName();
    this.type = context.column().type();
    this.dictionary = dictionary;
    this.offsets = offsets;
    this.bitmaps = bitmaps;
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
    if ((cardinality + 1L) * 4 > in.remaining()) {
      throw in.corrupt(
          "%d bitmap offsets do not fit in %d bytes".formatted(cardinality + 1, in.remaining()));
    }
    ByteBuffer offsets = in.slice((cardinality + 1) * 4);
    ByteBuffer bitmaps = in.slice(in.remaining());
    int previous = 0;
    for (int id = 0; id <= cardinality; id++) {
      int offset = offsets.getInt(id * 4);
      if (offset < previous || offset > bitmaps.capacity() || (id == 0 && offset != 0)) {
        throw in.corrupt(
            "bitmap offset %d of id %d is out of order or past %d bytes"
                .formatted(offset, id, bitmaps.capacity()));
      }
      previous = offset;
    }
    if (previous != bitmaps.capacity()) {
      throw in.corrupt("bitmaps end at %d of %d bytes".formatted(previous, bitmaps.capacity()));
    }
    return new InvertedIndexReader(context, dictionary, offsets, bitmaps);
  }

  /** The docs whose value has dictionary id {@code id} (a fresh bitmap). */
  public RoaringBitmap docs(int id) {
    int start = offsets.getInt(id * 4);
    int end = offsets.getInt((id + 1) * 4);
    RoaringBitmap bitmap = new RoaringBitmap();
    try {
      bitmap.deserialize(bitmaps.slice(start, end - start));
    } catch (IOException | RuntimeException e) {
      // The part's checksum matched, so only a writer bug gets here: fail loudly, naming the part.
      throw new IllegalStateException(
          new CorruptSegmentException(
              segment, partName, -1, "bitmap of id " + id + " does not parse", e));
    }
    return bitmap;
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return Coverage.EXACT;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    List<LongIntervals.Interval> intervals =
        LongIntervals.of(predicate, type, java.util.Optional.of(dictionary));
    RoaringBitmap union = new RoaringBitmap();
    for (LongIntervals.Interval interval : intervals) {
      for (long id = interval.low(); id <= interval.high(); id++) {
        union.or(docs((int) id));
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
