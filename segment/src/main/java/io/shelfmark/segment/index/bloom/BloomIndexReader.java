package io.shelfmark.segment.index.bloom;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.Eq;
import io.shelfmark.segment.predicate.In;
import io.shelfmark.segment.predicate.LongIntervals;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.ReaderContext;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/** Probes the per-block filters. Immutable and thread safe. */
public final class BloomIndexReader implements IndexReader {
  private final ValueType type;
  private final int docCount;
  private final int blockDocs;
  private final int blocks;
  private final ByteBuffer table;
  private final ByteBuffer words;
  private final RoaringBitmap nulls;
  private final long sizeInBytes;

  private BloomIndexReader(
      ReaderContext context, int blockDocs, int blocks, ByteBuffer table, ByteBuffer words) {
    this.type = context.column().type();
    this.docCount = context.docCount();
    this.blockDocs = blockDocs;
    this.blocks = blocks;
    this.table = table;
    this.words = words;
    this.nulls = context.nulls();
    this.sizeInBytes = context.part().remaining();
  }

  static BloomIndexReader open(ReaderContext context) throws CorruptSegmentException {
    PartReader in = context.reader();
    int hashVersion = in.getByte();
    if (hashVersion != BloomIndexType.HASH_VERSION) {
      throw in.corrupt("unknown bloom hash version " + hashVersion);
    }
    int blockDocs = in.getVarInt();
    int blocks = in.getVarInt();
    if (blockDocs <= 0
        || blocks != (int) ((context.docCount() + (long) blockDocs - 1) / blockDocs)) {
      throw in.corrupt(
          "%d blocks of %d docs do not cover %d docs"
              .formatted(blocks, blockDocs, context.docCount()));
    }
    if ((long) blocks * 8 > in.remaining()) {
      throw in.corrupt("%d block entries do not fit in %d bytes".formatted(blocks, in.remaining()));
    }
    ByteBuffer table = in.slice(blocks * 8);
    if (in.remaining() % 4 != 0) {
      throw in.corrupt("filter words of %d bytes are not whole words".formatted(in.remaining()));
    }
    ByteBuffer words = in.slice(in.remaining());
    long expectedWord = 0;
    for (int block = 0; block < blocks; block++) {
      long first = table.getInt(block * 8) & 0xFFFFFFFFL;
      long buckets = table.getInt(block * 8 + 4) & 0xFFFFFFFFL;
      if (first != expectedWord || (first + buckets * 8) * 4 > words.capacity()) {
        throw in.corrupt(
            "block %d filter at word %d of %d buckets lies outside the %d filter bytes"
                .formatted(block, first, buckets, words.capacity()));
      }
      expectedWord = first + buckets * 8;
    }
    return new BloomIndexReader(context, blockDocs, blocks, table, words);
  }

  @Override
  public Coverage coverage(ColumnPredicate predicate) {
    return BloomIndexType.answers(predicate) ? Coverage.CANDIDATES : Coverage.NONE;
  }

  @Override
  public IndexResult evaluate(ColumnPredicate predicate, RoaringBitmap context) {
    LongIntervals.checkType(predicate, type);
    List<Value> values =
        switch (predicate) {
          case Eq eq -> List.of(eq.value());
          case In in -> in.values();
          case Range range ->
              throw new IllegalArgumentException(
                  "Cannot answer range " + range + " with a bloom index");
        };
    long[] hashes = new long[values.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = BloomHashes.of(values.get(i));
    }
    RoaringBitmap candidates = new RoaringBitmap();
    for (int block = 0; block < blocks; block++) {
      if (mightContainAny(block, hashes)) {
        long start = (long) block * blockDocs;
        candidates.add(start, Math.min(docCount, start + blockDocs));
      }
    }
    candidates.and(context);
    candidates.andNot(nulls);
    return IndexResult.candidates(candidates);
  }

  private boolean mightContainAny(int block, long[] hashes) {
    int first = table.getInt(block * 8);
    int buckets = table.getInt(block * 8 + 4);
    if (buckets == 0) {
      return false;
    }
    for (long hash : hashes) {
      int bucket = first + BloomHashes.bucket(hash, buckets) * 8;
      boolean all = true;
      for (int word = 0; word < 8 && all; word++) {
        all = (words.getInt((bucket + word) * 4) & BloomHashes.bit(hash, word)) != 0;
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  @Override
  public long sizeInBytes() {
    return sizeInBytes;
  }

  @Override
  public String toString() {
    return "BloomIndexReader[" + blocks + " blocks of " + blockDocs + " docs]";
  }
}
