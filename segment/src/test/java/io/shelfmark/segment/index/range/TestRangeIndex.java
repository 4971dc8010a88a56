package io.shelfmark.segment.index.range;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.IndexChecks;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestRangeIndex {
  private static final double[] SPECIAL_DOUBLES = {
    Double.NaN,
    -0.0,
    0.0,
    Double.NEGATIVE_INFINITY,
    Double.POSITIVE_INFINITY,
    Double.MIN_VALUE,
    -Double.MAX_VALUE
  };
  private static final long[] EXTREME_LONGS = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1};

  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 2, 1000, 65536})
  void testRoundTripInEveryMode(int docs) throws IOException {
    long seed = 200 + docs;
    TestingTable table =
        new TestingTable(docs)
            .keepConfiguredIndexes()
            // Values mode, a day of epoch millis: 27 slices relative to the minimum.
            .column(
                "logical_timestamp",
                ValueType.LONG,
                TestingSegments.values(
                    docs, seed, 0.1, r -> Value.of(1754179200000L + Math.floorMod(r, 86_400_000L))),
                "range")
            // Values mode spanning the whole long range: no spare slot for nulls.
            .column(
                "long_extremes",
                ValueType.LONG,
                TestingSegments.values(
                    docs,
                    seed + 1,
                    0.1,
                    r -> Value.of(r % 3 == 0 ? r : EXTREME_LONGS[(int) Math.floorMod(r, 4L)])),
                "range")
            .column(
                "sum_rollup",
                ValueType.DOUBLE,
                TestingSegments.values(
                    docs,
                    seed + 2,
                    0.1,
                    r ->
                        Value.of(
                            r % 4 == 0
                                ? SPECIAL_DOUBLES[(int) Math.floorMod(r, 7L)]
                                : (r % 1000) / 8.0)),
                "range")
            // Dictionary ids mode: strings are ranked through their dictionary.
            .column(
                "metric",
                ValueType.STRING,
                TestingSegments.values(
                    docs, seed + 3, 0.1, r -> Value.of("metric." + Math.floorMod(r, 300))),
                "range")
            .column("all_nulls", ValueType.LONG, new Value[docs], "range");
    try (Segment segment = TestingSegments.open(table)) {
      for (String column : table.columns().keySet()) {
        IndexChecks.checkRandomComparisons(
            segment, table, column, RangeIndexType.ID, seed, docs > 10_000 ? 25 : 60);
      }
    }
  }

  @Test
  void testSizeDependsOnSpreadNotMagnitude() throws IOException {
    int docs = 20_000;
    Value[] small = TestingSegments.values(docs, 7, 0, r -> Value.of(Math.floorMod(r, 1L << 20)));
    Value[] shifted = new Value[docs];
    for (int doc = 0; doc < docs; doc++) {
      shifted[doc] = Value.of(((Value.LongValue) small[doc]).value() + 1754179200000L);
    }
    TestingTable table =
        new TestingTable(docs)
            .keepConfiguredIndexes()
            .column("small", ValueType.LONG, small, "range")
            .column("shifted", ValueType.LONG, shifted, "range");
    try (Segment segment = TestingSegments.open(table)) {
      IndexReader smallReader = segment.index("small", RangeIndexType.ID).orElseThrow();
      IndexReader shiftedReader = segment.index("shifted", RangeIndexType.ID).orElseThrow();
      // Stored relative to the segment's minimum: epoch-millis magnitudes cost nothing extra.
      assertThat(shiftedReader.sizeInBytes()).isEqualTo(smallReader.sizeInBytes());
      Range range =
          Range.between(
              "shifted", Value.of(1754179200000L + 1000), Value.of(1754179200000L + 500_000));
      assertThat(shiftedReader.evaluate(range, segment.allDocs()).definite())
          .isEqualTo(
              smallReader
                  .evaluate(
                      Range.between("small", Value.of(1000), Value.of(500_000)), segment.allDocs())
                  .definite());
    }
  }
}
