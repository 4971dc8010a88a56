package io.shelfmark.segment.index.sorted;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.IndexChecks;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TestSortedIndex {
  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 3, 1000, 65537})
  void testRoundTripOfSortedColumns(int docs) throws IOException {
    long seed = 300 + docs;
    SplittableRandom random = new SplittableRandom(seed);
    int leading = docs / 10;
    int trailing = docs / 7;
    Value[] timestamps = new Value[docs];
    Value[] doubles = new Value[docs];
    Value[] strings = new Value[docs];
    long timestamp = 1754179200000L;
    double value = -50;
    for (int doc = leading; doc < docs - trailing; doc++) {
      timestamp += random.nextInt(3) == 0 ? random.nextInt(200) : 0;
      value += random.nextInt(5) == 0 ? 0.25 : 0;
      timestamps[doc] = Value.of(timestamp);
      doubles[doc] = Value.of(doc == leading ? Double.NEGATIVE_INFINITY : value);
      strings[doc] = Value.of("svc-%05d".formatted(doc / 17));
    }
    TestingTable table =
        new TestingTable(docs)
            .column("logical_timestamp", ValueType.LONG, timestamps, "sorted")
            .column("latest_rollup", ValueType.DOUBLE, doubles, "sorted")
            .column("service", ValueType.STRING, strings, "sorted");
    try (Segment segment = TestingSegments.open(table)) {
      for (String column : table.columns().keySet()) {
        assertThat(segment.indexIds(column)).as(column).containsExactly(SortedIndexType.ID);
        IndexChecks.checkRandomComparisons(segment, table, column, SortedIndexType.ID, seed, 40);
        // The same few predicates over and over: answered from the reader's recent lookups.
        for (int round = 0; round < 3; round++) {
          IndexChecks.checkRandomComparisons(
              segment, table, column, SortedIndexType.ID, seed + 1, 2);
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} docs")
  @ValueSource(ints = {1, 5, 1000, 65537})
  void testReadsEachDocsValueBack(int docs) throws IOException {
    long seed = 700 + docs;
    SplittableRandom random = new SplittableRandom(seed);
    int leading = docs / 9;
    int trailing = docs / 8;
    Value[] repeated = new Value[docs];
    Value[] distinct = new Value[docs];
    Value[] doubles = new Value[docs];
    Value[] strings = new Value[docs];
    long timestamp = 1754179200000L;
    double value = -3.5;
    for (int doc = leading; doc < docs - trailing; doc++) {
      timestamp += random.nextInt(4) == 0 ? random.nextInt(50) : 0;
      value += random.nextInt(3) == 0 ? 0.125 : 0;
      repeated[doc] = Value.of(timestamp);
      distinct[doc] = Value.of(1754179200000L + 7L * doc + random.nextInt(7));
      doubles[doc] = Value.of(value);
      strings[doc] = Value.of("svc-%05d".formatted(doc / 23));
    }
    TestingTable table =
        new TestingTable(docs)
            .column("repeated", ValueType.LONG, repeated, "sorted")
            .column("distinct", ValueType.LONG, distinct, "sorted")
            .column("doubles", ValueType.DOUBLE, doubles, "sorted")
            .column("strings", ValueType.STRING, strings, "sorted");
    try (Segment segment = TestingSegments.open(table)) {
      for (int[] order : docOrders(docs, random)) {
        for (String column : table.columns().keySet()) {
          SortedIndexReader reader =
              (SortedIndexReader) segment.index(column, SortedIndexType.ID).orElseThrow();
          checkValues(reader, table.values(column), order, column);
        }
      }
    }
  }

  /** Every doc ascending, a dense and a sparse ascending sample, and every doc shuffled. */
  private static java.util.List<int[]> docOrders(int docs, SplittableRandom random) {
    int[] all = java.util.stream.IntStream.range(0, docs).toArray();
    int[] dense = java.util.stream.IntStream.range(0, docs).filter(d -> d % 3 != 1).toArray();
    int[] sparse =
        java.util.stream.IntStream.range(0, docs).filter(d -> random.nextInt(500) == 0).toArray();
    int[] shuffled = all.clone();
    for (int i = shuffled.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int swap = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = swap;
    }
    return java.util.List.of(all, dense, sparse, shuffled);
  }

  private static void checkValues(
      SortedIndexReader reader, Value[] expected, int[] docs, String column) {
    int count = docs.length;
    boolean[] nulls = new boolean[count];
    switch (expected.length == 0 ? ValueType.LONG : typeOf(expected)) {
      case LONG -> {
        long[] out = new long[count];
        reader.longValues(docs, count, out, nulls);
        for (int i = 0; i < count; i++) {
          Value want = expected[docs[i]];
          assertThat(nulls[i]).as("%s doc %d null", column, docs[i]).isEqualTo(want == null);
          if (want != null) {
            assertThat(out[i])
                .as("%s doc %d", column, docs[i])
                .isEqualTo(((Value.LongValue) want).value());
          }
        }
      }
      case DOUBLE -> {
        double[] out = new double[count];
        reader.doubleValues(docs, count, out, nulls);
        for (int i = 0; i < count; i++) {
          Value want = expected[docs[i]];
          assertThat(nulls[i]).as("%s doc %d null", column, docs[i]).isEqualTo(want == null);
          if (want != null) {
            assertThat(out[i])
                .as("%s doc %d", column, docs[i])
                .isEqualTo(((Value.DoubleValue) want).value());
          }
        }
      }
      case STRING -> {
        int[] ids = new int[count];
        reader.dictionaryIds(docs, count, ids);
        for (int i = 0; i < count; i++) {
          Value want = expected[docs[i]];
          assertThat(ids[i] < 0).as("%s doc %d null", column, docs[i]).isEqualTo(want == null);
          if (want != null) {
            assertThat(reader.dictionary().orElseThrow().value(ids[i]))
                .as("%s doc %d", column, docs[i])
                .isEqualTo(want);
          }
        }
      }
    }
  }

  private static ValueType typeOf(Value[] values) {
    for (Value value : values) {
      if (value != null) {
        return value.type();
      }
    }
    return ValueType.LONG;
  }

  @Test
  void testUnsortedColumnGetsNoSortedIndex() throws IOException {
    Value[] values = {Value.of(1), Value.of(3), Value.of(2)};
    Value[] nullInTheMiddle = {Value.of(1), null, Value.of(2)};
    TestingTable table =
        new TestingTable(3)
            .column("unsorted", ValueType.LONG, values, "sorted", "range")
            .column("null_in_the_middle", ValueType.LONG, nullInTheMiddle, "sorted", "inverted");
    try (Segment segment = TestingSegments.open(table)) {
      assertThat(segment.indexIds("unsorted")).containsExactly("range");
      assertThat(segment.indexIds("null_in_the_middle")).containsExactly("inverted");
    }
  }

  @Test
  void testConstantColumnIsOneRun() throws IOException {
    int docs = 200_000;
    Value[] orgIds = new Value[docs];
    java.util.Arrays.fill(orgIds, Value.of(184833768L));
    TestingTable table =
        new TestingTable(docs).column("org_id", ValueType.LONG, orgIds, "inverted");
    try (Segment segment = TestingSegments.open(table)) {
      SortedIndexReader reader =
          (SortedIndexReader) segment.index("org_id", SortedIndexType.ID).orElseThrow();
      assertThat(reader.runCount()).isEqualTo(1);
      assertThat(reader.sizeInBytes()).isLessThan(64);
      assertThat(
              reader
                  .evaluate(
                      io.shelfmark.segment.predicate.Predicate.eq("org_id", 184833768L),
                      segment.allDocs())
                  .definite()
                  .getCardinality())
          .isEqualTo(docs);
    }
  }
}
