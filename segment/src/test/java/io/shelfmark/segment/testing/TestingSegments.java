package io.shelfmark.segment.testing;

import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.ByteArraySegmentSource;
import io.shelfmark.segment.spi.Value;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/** Opens segments built from {@link TestingTable}s, and makes value arrays for them. */
public final class TestingSegments {
  public static final IndexService INDEXES = IndexService.installed();

  private TestingSegments() {}

  public static Segment open(TestingTable table) throws IOException {
    return open(table.build(INDEXES));
  }

  public static Segment open(byte[] segment) throws IOException {
    return Segment.open(new ByteArraySegmentSource("testing", segment), INDEXES);
  }

  /** {@code docs} values from {@code draw}, each null with probability {@code nullShare}. */
  public static Value[] values(int docs, long seed, double nullShare, LongFunction<Value> draw) {
    SplittableRandom random = new SplittableRandom(seed);
    Value[] values = new Value[docs];
    for (int i = 0; i < docs; i++) {
      long next = random.nextLong();
      values[i] = random.nextDouble() < nullShare ? null : draw.apply(next);
    }
    return values;
  }
}
