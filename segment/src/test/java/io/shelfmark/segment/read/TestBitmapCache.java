package io.shelfmark.segment.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.index.inverted.InvertedIndexReader;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.source.ByteArraySegmentSource;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.ScanOracle;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/**
 * The bitmap cache behind inverted index readers: repeated lookups hit, the bound holds, no query
 * can change a cached bitmap, and a segment's entries serve only that open segment.
 */
class TestBitmapCache {
  // Three 65536-doc containers: posting lists of a few values are dense bitmap containers.
  private static final int DOCS = 150_000;

  @Test
  void testRepeatedQueriesHitTheCache() throws IOException {
    BitmapCache cache = BitmapCache.bounded(BitmapCache.DEFAULT_MAX_BYTES);
    TestingTable table = table(1, 5);
    try (Segment segment = open(table, "segment-a", cache)) {
      Predicate predicate = Predicate.eq("resolution", Value.of(15000L));
      RoaringBitmap expected = new ScanOracle(table).matches(predicate, segment.allDocs());
      for (int run = 0; run < 3; run++) {
        FilterResult result = new FilterEvaluator(segment).evaluate(predicate);
        assertThat(result.definite()).as("run %d", run).isEqualTo(expected);
      }
      assertThat(cache.stats().misses()).isEqualTo(1);
      assertThat(cache.stats().hits()).isEqualTo(2);
      assertThat(cache.stats().bytes()).isPositive();
    }
  }

  @Test
  void testInvalidateAllMakesTheNextLookupDecodeAgain() throws IOException {
    BitmapCache cache = BitmapCache.bounded(BitmapCache.DEFAULT_MAX_BYTES);
    TestingTable table = table(1, 5);
    try (Segment segment = open(table, "segment-a", cache)) {
      Predicate predicate = Predicate.eq("resolution", Value.of(15000L));
      RoaringBitmap expected = new ScanOracle(table).matches(predicate, segment.allDocs());
      new FilterEvaluator(segment).evaluate(predicate);
      cache.invalidateAll();
      assertThat(cache.stats().bytes()).isZero();

      assertThat(new FilterEvaluator(segment).evaluate(predicate).definite()).isEqualTo(expected);
      assertThat(cache.stats().misses()).isEqualTo(2);
      assertThat(cache.stats().hits()).isZero();
    }
  }

  @Test
  void testCacheStaysWithinItsBound() throws IOException {
    long bound = 40_000;
    BitmapCache cache = BitmapCache.bounded(bound);
    TestingTable table = table(2, 20);
    try (Segment segment = open(table, "segment-a", cache)) {
      InvertedIndexReader reader = reader(segment);
      int values = segment.dictionary("resolution").orElseThrow().size();
      assertThat(values).isEqualTo(20);
      for (int round = 0; round < 2; round++) {
        for (int id = 0; id < values; id++) {
          // Each posting list (about 7,500 docs over three containers) weighs over 6 KB.
          assertThat(reader.postings(id).sizeInBytes()).isGreaterThan(6_000);
          assertThat(cache.stats().bytes()).isLessThanOrEqualTo(bound);
        }
      }
      assertThat(cache.stats().evictions()).isPositive();
      assertThat(cache.size()).isLessThan(values);
      // Whatever was evicted decodes again, equal to the values.
      checkEveryValue(segment, table);
    }
  }

  @Test
  void testQueriesCannotModifyCachedBitmaps() throws IOException {
    BitmapCache cache = BitmapCache.bounded(BitmapCache.DEFAULT_MAX_BYTES);
    TestingTable table = table(3, 4);
    try (Segment segment = open(table, "segment-a", cache)) {
      InvertedIndexReader reader = reader(segment);
      Predicate equality = Predicate.eq("resolution", Value.of(15000L));
      Predicate range = Range.atLeast("resolution", Value.of(0L));
      Predicate in = Predicate.in("resolution", List.of(Value.of(15000L), Value.of(30000L)));
      Predicate both = Predicate.and(equality, Predicate.eq("org_id", Value.of(7L)));
      for (Predicate predicate : List.of(equality, range, in, both)) {
        for (int run = 0; run < 2; run++) {
          FilterResult result = new FilterEvaluator(segment).evaluate(predicate);
          // Scribble over everything a query gets back: none of it may be a cached bitmap.
          result.definite().flip(0L, DOCS);
          result.candidates().add(0L, DOCS);
        }
      }
      for (int id = 0; id < 4; id++) {
        RoaringBitmap copy = reader.docs(id);
        copy.clear();
        RoaringBitmap intersection = reader.postings(id).and(segment.allDocs());
        intersection.clear();
        RoaringBitmap union = new RoaringBitmap();
        reader.postings(id).orInto(union);
        union.flip(0L, DOCS);
      }
      assertThat(cache.stats().hits()).isPositive();
      checkEveryValue(segment, table);
      Predicate predicate = Predicate.eq("resolution", Value.of(15000L));
      assertThat(new FilterEvaluator(segment).evaluate(predicate).definite())
          .isEqualTo(new ScanOracle(table).matches(predicate, segment.allDocs()));
    }
  }

  @Test
  void testEntriesServeOnlyTheirOpenSegment() throws IOException {
    BitmapCache cache = BitmapCache.bounded(BitmapCache.DEFAULT_MAX_BYTES);
    TestingTable first = table(4, 5);
    TestingTable second = table(5, 5);
    Predicate predicate = Predicate.eq("resolution", Value.of(15000L));
    // Same name, same part, same dictionary id, different docs: a replaced segment.
    try (Segment a = open(first, "same-location", cache)) {
      RoaringBitmap fromA = new FilterEvaluator(a).evaluate(predicate).definite();
      assertThat(fromA).isEqualTo(new ScanOracle(first).matches(predicate, a.allDocs()));
      try (Segment b = open(second, "same-location", cache)) {
        RoaringBitmap fromB = new FilterEvaluator(b).evaluate(predicate).definite();
        assertThat(fromB).isEqualTo(new ScanOracle(second).matches(predicate, b.allDocs()));
        assertThat(fromB).isNotEqualTo(fromA);
        assertThat(cache.stats().misses()).isEqualTo(2);
        assertThat(cache.size()).isEqualTo(2);
      }
      // Closing b dropped its entry and left a's.
      assertThat(cache.size()).isEqualTo(1);
      assertThat(new FilterEvaluator(a).evaluate(predicate).definite()).isEqualTo(fromA);
      assertThat(cache.stats().hits()).isEqualTo(1);
    }
    assertThat(cache.size()).isZero();
    // A segment opened again at the location decodes anew.
    try (Segment again = open(second, "same-location", cache)) {
      assertThat(new FilterEvaluator(again).evaluate(predicate).definite())
          .isEqualTo(new ScanOracle(second).matches(predicate, again.allDocs()));
      assertThat(cache.stats().misses()).isEqualTo(3);
    }
  }

  @Test
  void testDisabledCacheDecodesEveryTime() throws IOException {
    BitmapCache cache = BitmapCache.bounded(0);
    assertThat(cache).isSameAs(BitmapCache.disabled());
    assertThat(cache.isEnabled()).isFalse();
    TestingTable table = table(6, 3);
    try (Segment segment = open(table, "segment-a", cache)) {
      checkEveryValue(segment, table);
      checkEveryValue(segment, table);
    }
    assertThat(cache.stats()).isEqualTo(new BitmapCache.Stats(0, 0, 0, 0));
  }

  @Test
  void testNegativeBoundIsRefused() {
    assertThatThrownBy(() -> BitmapCache.bounded(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot bound a bitmap cache to -1 bytes (use 0 to disable it)");
  }

  /** A resolution column of {@code values} values (15000 among them) and an org_id column. */
  private static TestingTable table(long seed, int values) {
    return new TestingTable(DOCS)
        .keepConfiguredIndexes()
        .column(
            "resolution",
            ValueType.LONG,
            TestingSegments.values(
                DOCS, seed, 0.05, r -> Value.of(15000L * (1 + Math.floorMod(r, values)))),
            "inverted")
        .column(
            "org_id",
            ValueType.LONG,
            TestingSegments.values(DOCS, seed + 1, 0, r -> Value.of(Math.floorMod(r, 10L))),
            "inverted");
  }

  private static Segment open(TestingTable table, String name, BitmapCache cache)
      throws IOException {
    return Segment.open(
        new ByteArraySegmentSource(name, table.build(TestingSegments.INDEXES)),
        TestingSegments.INDEXES,
        cache);
  }

  private static InvertedIndexReader reader(Segment segment) throws IOException {
    return (InvertedIndexReader) segment.index("resolution", InvertedIndexType.ID).orElseThrow();
  }

  /** Every value's posting list equals the docs holding it. */
  private static void checkEveryValue(Segment segment, TestingTable table) throws IOException {
    InvertedIndexReader reader = reader(segment);
    ScanOracle oracle = new ScanOracle(table);
    var dictionary = segment.dictionary("resolution").orElseThrow();
    for (int id = 0; id < dictionary.size(); id++) {
      Predicate predicate = Predicate.eq("resolution", dictionary.value(id));
      assertThat(reader.docs(id))
          .as("docs of %s", dictionary.value(id))
          .isEqualTo(oracle.matches(predicate, segment.allDocs()));
    }
  }
}
