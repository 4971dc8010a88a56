package io.shelfmark.parquet.read;

import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.coalesce.RangeCoalescer;
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
}
