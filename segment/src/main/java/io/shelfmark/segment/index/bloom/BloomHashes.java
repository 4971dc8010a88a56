package io.shelfmark.segment.index.bloom;

import io.shelfmark.segment.encoding.ValueHash;
import io.shelfmark.segment.spi.Value;

/** The hash a bloom filter stores for a value: {@link ValueHash} of its canonical form. */
final class BloomHashes {
  private BloomHashes() {}

  static long of(Value value) {
    return switch (value) {
      case Value.LongValue(long v) -> ValueHash.hashLong(v);
      case Value.DoubleValue(double v) -> ValueHash.hashLong(Value.sortableBits(v));
      case Value.StringValue s -> {
        byte[] utf8 = s.utf8();
        yield ValueHash.hashBytes(utf8, 0, utf8.length);
      }
    };
  }

  /** The bucket of {@code hash} among {@code buckets}: the high half scaled to the range. */
  static int bucket(long hash, int buckets) {
    return (int) (((hash >>> 32) * buckets) >>> 32);
  }

  /** The bit of word {@code word} of the bucket that {@code hash} sets. */
  static int bit(long hash, int word) {
    return 1 << (((int) hash * BloomIndexType.SALTS[word]) >>> 27);
  }
}
