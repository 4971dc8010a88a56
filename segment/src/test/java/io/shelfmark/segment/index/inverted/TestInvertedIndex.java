package io.shelfmark.segment.index.inverted;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.IndexChecks;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.roaringbitmap.RoaringBitmap;

class TestInvertedIndex {
  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 100, 65537})
  void testRoundTripPerValueAndType(int docs) throws IOException {
    long seed = 100 + docs;
    TestingTable table =
        new TestingTable(docs)
            .keepConfiguredIndexes()
            .column(
                "org_id",
                ValueType.LONG,
                TestingSegments.values(
                    docs, seed, 0.1, r -> Value.of(184833768L + Math.floorMod(r, 50))),
                "inverted")
            .column(
                "sum_rollup",
                ValueType.DOUBLE,
                TestingSegments.values(
                    docs, seed + 1, 0.1, r -> Value.of(Math.floorMod(r, 40) / 4.0 - 5)),
                "inverted")
            .column(
                "metric",
                ValueType.STRING,
                TestingSegments.values(
                    docs, seed + 2, 0.2, r -> Value.of("tk_" + Math.floorMod(r, 500))),
                "inverted");
    try (Segment segment = TestingSegments.open(table)) {
      for (String column : table.columns().keySet()) {
        InvertedIndexReader reader =
            (InvertedIndexReader) segment.index(column, InvertedIndexType.ID).orElseThrow();
        Dictionary dictionary = segment.dictionary(column).orElseThrow();
        // Every value's bitmap is exactly its docs; together with the nulls they tile the segment.
        Map<Value, RoaringBitmap> expected = new HashMap<>();
        for (int doc = 0; doc < docs; doc++) {
          Value value = table.value(column, doc);
          if (value != null) {
            expected.computeIfAbsent(value, v -> new RoaringBitmap()).add(doc);
          }
        }
        assertThat(dictionary.size()).isEqualTo(expected.size());
        RoaringBitmap covered = segment.nulls(column).clone();
        for (int id = 0; id < dictionary.size(); id++) {
          Value value = dictionary.value(id);
          assertThat(reader.docs(id))
              .as("seed %d, %s = %s", seed, column, value)
              .isEqualTo(expected.get(value));
          assertThat(RoaringBitmap.intersects(covered, reader.docs(id))).isFalse();
          covered.or(reader.docs(id));
        }
        assertThat(covered).isEqualTo(segment.allDocs());
        IndexChecks.checkRandomComparisons(segment, table, column, InvertedIndexType.ID, seed, 40);
      }
    }
  }

  @Test
  void testClusteredValuesCompressToRuns() throws IOException {
    int docs = 100_000;
    Value[] values = new Value[docs];
    int[] order = {5, 3, 9, 1, 7, 0, 8, 2, 6, 4};
    for (int doc = 0; doc < docs; doc++) {
      values[doc] = Value.of(order[doc / 10_000]);
    }
    TestingTable table =
        new TestingTable(docs)
            .keepConfiguredIndexes()
            .column("resolution", ValueType.LONG, values, "inverted");
    try (Segment segment = TestingSegments.open(table)) {
      InvertedIndexReader reader =
          (InvertedIndexReader) segment.index("resolution", InvertedIndexType.ID).orElseThrow();
      // Ten values in runs of 10,000: run-optimized bitmaps take a few bytes each, not 12 KB.
      assertThat(reader.sizeInBytes()).isLessThan(400);
      assertThat(
              reader
                  .docs(segment.dictionary("resolution").orElseThrow().indexOf(Value.of(9)))
                  .toArray())
          .hasSize(10_000)
          .startsWith(20_000)
          .endsWith(29_999);
    }
  }
}
