package io.shelfmark.parquet.read;

import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.coalesce.RangeCoalescer;
import java.util.ArrayList;
import java.util.List;

/** The one place the reader hands ranges to the storage module's range coalescer. */
final class Coalescing {
  private Coalescing() {}

  /** The merged reads covering {@code ranges}, per the options' merge distance and buffer size. */
  static List<ByteRange> merge(List<ByteRange> ranges, ReaderOptions options) {
    if (ranges.isEmpty()) {
      return List.of();
    }
    RangeCoalescer coalescer =
        new RangeCoalescer(options.maxMergeDistance().bytes(), options.maxBufferSize().bytes());
    return coalescer.coalesce(ranges).reads();
  }

  /**
   * The reads among {@code reads} (sorted, disjoint) that hold a byte of some range of {@code
   * uses}: a span cut at the buffer size may leave a piece of gap alone, which nothing needs.
   */
  static List<ByteRange> readsHolding(List<ByteRange> reads, List<ByteRange> uses) {
    List<ByteRange> sorted = new ArrayList<>(uses);
    sorted.sort(null);
    List<ByteRange> kept = new ArrayList<>(reads.size());
    int next = 0;
    for (ByteRange read : reads) {
      while (next < sorted.size() && sorted.get(next).end() <= read.offset()) {
        next++;
      }
      if (next < sorted.size() && sorted.get(next).offset() < read.end()) {
        kept.add(read);
      }
    }
    return kept;
  }
}
