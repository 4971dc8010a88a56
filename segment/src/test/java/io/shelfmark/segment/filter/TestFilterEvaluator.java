package io.shelfmark.segment.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.predicate.And;
import io.shelfmark.segment.predicate.ColumnPredicate;
import io.shelfmark.segment.predicate.IsNull;
import io.shelfmark.segment.predicate.Not;
import io.shelfmark.segment.predicate.Or;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.predicate.Range;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.ByteArraySegmentSource;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.testing.MixedTable;
import io.shelfmark.segment.testing.RandomPredicates;
import io.shelfmark.segment.testing.ScanOracle;
import io.shelfmark.segment.testing.TestingSegments;
import io.shelfmark.segment.testing.TestingTable;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.roaringbitmap.RoaringBitmap;

/**
 * Differential tests: for random predicate trees over every index type, the docs the indexes select
 * (definite, plus candidates whose residual holds) equal a brute-force scan of the values in
 * three-valued logic — nulls, NOT, map keys present and absent, columns the segment does not know —
 * at sizes around the 65536-doc container boundary. Whenever every comparison in a tree has an
 * exact index, the answer must also be exact (no residual), so a silent fallback cannot pass.
 */
class TestFilterEvaluator {
  private static final IndexService INDEXES = IndexService.installed();

  @ParameterizedTest(name = "{0} docs")
  @CsvSource({"0, 200", "1, 300", "2, 300", "1000, 400", "65535, 25", "65536, 25", "65537, 25"})
  void testRandomPredicatesMatchScan(int docs, int predicates) throws IOException {
    long seed = 0x5EED_0000L + docs;
    TestingTable table = MixedTable.generate(docs, seed);
    try (Segment segment = open(table)) {
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      ScanOracle oracle = new ScanOracle(table);
      RandomPredicates random = new RandomPredicates(table, MixedTable.predicateColumns(), seed);
      for (int i = 0; i < predicates; i++) {
        Predicate predicate = random.next(3);
        checkAgainstScan(
            segment,
            evaluator,
            oracle,
            predicate,
            segment.allDocs(),
            "seed %d, predicate %d: %s".formatted(seed, i, predicate));
      }
    }
  }

  /**
   * The same differential check through a bitmap cache small enough to evict, each predicate run
   * twice with the first answer scribbled over in between: a result sharing storage with a cached
   * posting list would corrupt the second answer.
   */
  @ParameterizedTest(name = "{0} docs")
  @CsvSource({"1000, 150", "65537, 20"})
  void testRandomPredicatesMatchScanThroughBitmapCache(int docs, int predicates)
      throws IOException {
    long seed = 0xCAC4E_0000L + docs;
    TestingTable table = MixedTable.generate(docs, seed);
    BitmapCache cache = BitmapCache.bounded(256 * 1024);
    try (Segment segment =
        Segment.open(new ByteArraySegmentSource("cached", table.build(INDEXES)), INDEXES, cache)) {
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      ScanOracle oracle = new ScanOracle(table);
      RandomPredicates random = new RandomPredicates(table, MixedTable.predicateColumns(), seed);
      for (int i = 0; i < predicates; i++) {
        Predicate predicate = random.next(3);
        for (int run = 0; run < 2; run++) {
          String description =
              "seed %d, predicate %d, run %d: %s".formatted(seed, i, run, predicate);
          checkAgainstScan(segment, evaluator, oracle, predicate, segment.allDocs(), description);
          FilterResult scribbled = evaluator.evaluate(predicate);
          scribbled.definite().flip(0L, docs);
          scribbled.candidates().add(0L, docs);
        }
      }
      assertThat(cache.stats().hits()).isPositive();
    }
  }

  @Test
  void testContextLeavesOutDeletedDocs() throws IOException {
    long seed = 0xDE1E7EL;
    TestingTable table = MixedTable.generate(40_000, seed);
    SplittableRandom random = new SplittableRandom(seed);
    RoaringBitmap context = new RoaringBitmap();
    context.add(0L, 40_000L);
    for (int i = 0; i < 20_000; i++) {
      context.remove(random.nextInt(40_000));
    }
    context.remove(30_000L, 31_000L);
    try (Segment segment = open(table)) {
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      ScanOracle oracle = new ScanOracle(table);
      RandomPredicates predicates =
          new RandomPredicates(table, MixedTable.predicateColumns(), seed);
      for (int i = 0; i < 25; i++) {
        Predicate predicate = predicates.next(3);
        checkAgainstScan(
            segment,
            evaluator,
            oracle,
            predicate,
            context,
            "seed %d, predicate %d: %s".formatted(seed, i, predicate));
      }
    }
  }

  @Test
  void testNotOfComparisonExcludesNulls() throws IOException {
    TestingTable table =
        new TestingTable(4)
            .column(
                "x",
                ValueType.LONG,
                TestingTable.values(Value.of(5), null, Value.of(7), null),
                "inverted");
    try (Segment segment = open(table)) {
      FilterEvaluator evaluator = new FilterEvaluator(segment);
      FilterResult notFive = evaluator.evaluate(Predicate.not(Predicate.eq("x", 5)));
      assertThat(notFive.isExact()).isTrue();
      assertThat(notFive.definite().toArray()).containsExactly(2);
      assertThat(evaluator.evaluate(Predicate.isNull("x")).definite().toArray())
          .containsExactly(1, 3);
      assertThat(evaluator.evaluate(Predicate.not(Predicate.isNull("x"))).definite().toArray())
          .containsExactly(0, 2);
      FilterResult either =
          evaluator.evaluate(
              Predicate.or(Predicate.eq("x", 5), Predicate.not(Predicate.eq("x", 5))));
      assertThat(either.definite().toArray())
          .as("x = 5 OR NOT x = 5 is unknown on nulls")
          .containsExactly(0, 2);
    }
  }

  @Test
  void testSortedColumnAnswersFromSortedIndexOnly() throws IOException {
    TestingTable table = MixedTable.generate(5000, 42);
    try (Segment segment = open(table)) {
      assertThat(segment.indexIds("long_sorted"))
          .as("range and inverted give way to the sorted index")
          .containsExactly("sorted");
      FilterResult result =
          new FilterEvaluator(segment)
              .evaluate(Range.atLeast("long_sorted", table.value("long_sorted", 2500)));
      assertThat(result.isExact()).isTrue();
      assertThat(result.indexesUsed()).containsExactly("nulls[long_sorted]", "sorted[long_sorted]");
    }
  }

  @Test
  void testBenchmarkQueryShapeIsAnsweredFromIndexes() throws IOException {
    TestingTable table = MixedTable.generate(20_000, 7);
    String node = ColumnDescriptor.mapKeyName("dimensions", "node");
    Predicate q4 =
        Predicate.and(
            Predicate.eq(
                "string_inverted",
                table.value("string_inverted", 3) == null
                    ? Value.of("x")
                    : table.value("string_inverted", 3)),
            Predicate.eq("long_inverted", 7),
            Range.between("long_range", Value.of(-500_000_000_000L), Value.of(500_000_000_000L)),
            Predicate.eq(node, "node-17"));
    try (Segment segment = open(table)) {
      FilterResult result = new FilterEvaluator(segment).evaluate(q4);
      assertThat(result.isExact()).isTrue();
      assertThat(result.definite()).isEqualTo(new ScanOracle(table).matches(q4, segment.allDocs()));
      assertThat(result.indexesUsed())
          .contains("inverted[" + node + "]", "inverted[string_inverted]");
    }
  }

  @Test
  void testUnknownColumnIsResidualOverTheContext() throws IOException {
    TestingTable table = MixedTable.generate(100, 3);
    try (Segment segment = open(table)) {
      FilterResult result = new FilterEvaluator(segment).evaluate(Predicate.eq("unindexed", 3));
      assertThat(result.definite().isEmpty()).isTrue();
      assertThat(result.candidates().getCardinality()).isEqualTo(100);
      assertThat(result.residual()).contains(Predicate.eq("unindexed", 3));
      FilterResult noIndex =
          new FilterEvaluator(segment).evaluate(Predicate.eq("long_no_index", 3));
      assertThat(noIndex.candidates())
          .as("only non-null docs can match")
          .isEqualTo(RoaringBitmap.andNot(segment.allDocs(), segment.nulls("long_no_index")));
    }
  }

  @Test
  void testLiteralOfWrongTypeIsRefused() throws IOException {
    TestingTable table = MixedTable.generate(10, 3);
    try (Segment segment = open(table)) {
      assertThatThrownBy(
              () ->
                  new FilterEvaluator(segment).evaluate(Predicate.eq("long_inverted", "184833768")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot compare LONG column long_inverted with STRING literals in long_inverted = '184833768' (cast the literal to LONG)");
    }
  }

  static Segment open(TestingTable table) throws IOException {
    return TestingSegments.open(table);
  }

  static void checkAgainstScan(
      Segment segment,
      FilterEvaluator evaluator,
      ScanOracle oracle,
      Predicate predicate,
      RoaringBitmap context,
      String description)
      throws IOException {
    RoaringBitmap contextCopy = context.clone();
    FilterResult result = evaluator.evaluate(predicate, context);
    assertThat(context).as("context untouched: %s", description).isEqualTo(contextCopy);
    RoaringBitmap expected = oracle.matches(predicate, context);
    assertThat(RoaringBitmap.andNot(result.definite(), context).isEmpty())
        .as("definite inside context: %s", description)
        .isTrue();
    assertThat(RoaringBitmap.andNot(result.candidates(), context).isEmpty())
        .as("candidates inside context: %s", description)
        .isTrue();
    assertThat(RoaringBitmap.intersects(result.definite(), result.candidates()))
        .as("disjoint: %s", description)
        .isFalse();
    assertThat(RoaringBitmap.andNot(result.definite(), expected).isEmpty())
        .as("definite docs all match: %s", description)
        .isTrue();
    RoaringBitmap actual = result.definite().clone();
    if (!result.candidates().isEmpty()) {
      actual.or(oracle.matches(result.residual().orElseThrow(), result.candidates()));
    }
    assertThat(actual).as("index answer equals scan: %s", description).isEqualTo(expected);
    if (allExactlyIndexed(segment, predicate)) {
      assertThat(result.isExact()).as("exact: %s -> %s", description, result).isTrue();
    }
  }

  private static final Set<String> EXACT_TYPES = Set.of("inverted", "range", "sorted", "forward");

  /**
   * Whether every leaf names a column the segment has with an exact index (IS NULL: any column).
   */
  private static boolean allExactlyIndexed(Segment segment, Predicate predicate) {
    return switch (predicate) {
      case And and -> and.operands().stream().allMatch(p -> allExactlyIndexed(segment, p));
      case Or or -> or.operands().stream().allMatch(p -> allExactlyIndexed(segment, p));
      case Not not -> allExactlyIndexed(segment, not.operand());
      case IsNull isNull -> segment.column(isNull.column()).isPresent();
      case ColumnPredicate comparison ->
          segment.column(comparison.column()).isPresent()
              && segment.indexIds(comparison.column()).stream().anyMatch(EXACT_TYPES::contains);
    };
  }

  static List<String> columns() {
    return MixedTable.predicateColumns();
  }
}
