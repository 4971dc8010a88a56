package io.shelfmark.segment.index.forward;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.IndexChecks;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestForwardIndex {
  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 1000, 65537})
  void testEveryDocMapsToItsValue(int docs) throws IOException {
    long seed = 500 + docs;
    TestingTable table =
        new TestingTable(docs)
            .column(
                "service",
                ValueType.STRING,
                TestingSegments.values(
                    docs, seed, 0.1, r -> Value.of("svc-" + Math.floorMod(r, 50))),
                "forward")
            .column(
                "resolution",
                ValueType.LONG,
                TestingSegments.values(
                    docs,
                    seed + 1,
                    0.1,
                    r -> Value.of(new long[] {15000, 60000, 300000}[(int) Math.floorMod(r, 3L)])),
                "forward")
            .column(
                "ratio",
                ValueType.DOUBLE,
                TestingSegments.values(
                    docs, seed + 2, 0.5, r -> Value.of(Math.floorMod(r, 7) / 2.0)),
                "forward");
    try (Segment segment = TestingSegments.open(table)) {
      for (String column : table.columns().keySet()) {
        ForwardIndexReader reader =
            (ForwardIndexReader) segment.index(column, ForwardIndexType.ID).orElseThrow();
        int[] ids = new int[docs];
        reader.dictionaryIds(0, docs, ids);
        int[] someDocs = {0, docs / 2, docs - 1};
        int[] someIds = new int[3];
        reader.dictionaryIds(someDocs, 3, someIds);
        for (int doc = 0; doc < docs; doc++) {
          Value expected = table.value(column, doc);
          assertThat(ids[doc]).isEqualTo(reader.dictionaryId(doc));
          if (expected == null) {
            assertThat(ids[doc])
                .as("seed %d, %s doc %d", seed, column, doc)
                .isEqualTo(reader.nullId());
          } else {
            assertThat(reader.dictionary().value(ids[doc]))
                .as("seed %d, %s doc %d", seed, column, doc)
                .isEqualTo(expected);
          }
        }
        assertThat(someIds).containsExactly(ids[0], ids[docs / 2], ids[docs - 1]);
        IndexChecks.checkRandomComparisons(segment, table, column, ForwardIndexType.ID, seed, 30);
      }
    }
  }
}
