package io.shelfmark.segment.index.bloom;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Coverage;
import io.shelfmark.segment.spi.IndexReader;
import io.shelfmark.segment.spi.IndexResult;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.IndexChecks;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestBloomIndex {
  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 1000, 65537})
  void testCandidatesNeverMissAMatch(int docs) throws IOException {
    long seed = 400 + docs;
    TestingTable table =
        new TestingTable(docs)
            .column(
                "trace_id",
                ValueType.STRING,
                TestingSegments.values(
                    docs, seed, 0.1, r -> Value.of("trace-" + Long.toHexString(r))),
                "bloom")
            .column(
                "request_id",
                ValueType.LONG,
                TestingSegments.values(docs, seed + 1, 0.1, r -> Value.of(r)),
                "bloom")
            .column(
                "latency",
                ValueType.DOUBLE,
                TestingSegments.values(
                    docs, seed + 2, 0.1, r -> Value.of(Math.floorMod(r, 100_000) / 3.0)),
                "bloom")
            .column(
                "with_dictionary",
                ValueType.STRING,
                TestingSegments.values(
                    docs, seed + 3, 0.1, r -> Value.of("host-" + Math.floorMod(r, 5000))),
                "bloom",
                "forward");
    try (Segment segment = TestingSegments.open(table)) {
      for (String column : table.columns().keySet()) {
        IndexChecks.checkRandomComparisons(segment, table, column, BloomIndexType.ID, seed, 30);
      }
    }
  }

  @Test
  void testAbsentValuesRarelyMatchAnyBlock() throws IOException {
    int docs = 2 * BloomIndexType.BLOCK_DOCS;
    TestingTable table =
        new TestingTable(docs)
            .column(
                "trace_id",
                ValueType.LONG,
                TestingSegments.values(docs, 11, 0, r -> Value.of(r & Long.MAX_VALUE)),
                "bloom");
    try (Segment segment = TestingSegments.open(table)) {
      IndexReader reader = segment.index("trace_id", BloomIndexType.ID).orElseThrow();
      int blocksMatched = 0;
      for (long absent = -1; absent > -1001; absent--) {
        IndexResult result = reader.evaluate(Predicate.eq("trace_id", absent), segment.allDocs());
        assertThat(result.definite().isEmpty()).isTrue();
        blocksMatched += result.candidates().getCardinality() / BloomIndexType.BLOCK_DOCS;
      }
      // 1000 absent values probed against 2 blocks: about 1% false positives, allow 2%.
      assertThat(blocksMatched).isLessThan(40);
      Value present = Value.of(((Value.LongValue) table.value("trace_id", 70_000)).value());
      IndexResult hit = reader.evaluate(Predicate.eq("trace_id", present), segment.allDocs());
      assertThat(hit.candidates().contains(70_000)).isTrue();
      // About 10 bits per distinct value.
      assertThat(reader.sizeInBytes()).isBetween(docs * 10L / 8, docs * 12L / 8);
      assertThat(reader.coverage(Range.atLeast("trace_id", present))).isEqualTo(Coverage.NONE);
    }
  }
}
