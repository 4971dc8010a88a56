package io.shelfmark.segment.startree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.HllUnion;
import org.apache.datasketches.hll.TgtHllType;
import org.junit.jupiter.api.Test;

/**
 * Random rows (NULL dimension values, NULL metrics, extreme longs) aggregated through a star-tree,
 * for random constraints and groupings, against the same aggregation computed row by row; at leaf
 * sizes that make every node a leaf, and ones that split down to single records, with and without
 * star nodes, before and after a serialization round trip.
 */
class TestStarTree {
  private static final List<StarTreeDimension> DIMENSIONS =
      List.of(
          new StarTreeDimension("a", ValueType.LONG),
          new StarTreeDimension("b", ValueType.STRING),
          new StarTreeDimension("c", ValueType.DOUBLE),
          new StarTreeDimension("d", ValueType.LONG));
  private static final List<StarTreeMetric> METRICS =
      List.of(
          new StarTreeMetric("x", ValueType.LONG, true),
          new StarTreeMetric("y", ValueType.DOUBLE, true));

  private record Row(Object[] dims, Long x, Double y) {}

  @Test
  void randomQueriesMatchRowByRowAggregation() throws Exception {
    Random random = new Random(24);
    for (int round = 0; round < 24; round++) {
      int rowCount = random.nextInt(1, 3000);
      List<Row> rows = randomRows(random, rowCount);
      int maxLeaf = new int[] {1, 3, 50, 100_000}[round % 4];
      Set<Integer> skip = round % 3 == 0 ? Set.of(1) : round % 3 == 1 ? Set.of() : Set.of(0, 2);
      StarTree built = build(rows, maxLeaf, skip);
      StarTree tree = roundTrip(built);
      assertThat(tree.recordCount()).isEqualTo(built.recordCount());
      for (int query = 0; query < 40; query++) {
        boolean[] grouped = new boolean[4];
        Object[][] allowedValues = new Object[4][];
        for (int d = 0; d < 4; d++) {
          grouped[d] = random.nextInt(4) == 0;
          if (random.nextInt(3) == 0) {
            allowedValues[d] = new Object[] {pick(random, d), pick(random, d)};
          }
        }
        assertThat(viaTree(tree, grouped, allowedValues))
            .as("round %d query %d", round, query)
            .isEqualTo(rowByRow(rows, grouped, allowedValues));
      }
    }
  }

  /**
   * A file sorted on its time column meets the LONG dimension's values in ascending order, which
   * the builder renumbers without sorting them: the answers must be the rows' answers still, with
   * null rows anywhere in between.
   */
  @Test
  void rowsSortedOnALongDimensionMatchRowByRowAggregation() throws Exception {
    Random random = new Random(77);
    for (int round = 0; round < 12; round++) {
      List<Row> rows = new ArrayList<>(randomRows(random, random.nextInt(1, 3000)));
      // Non-null values of d ascending in row order; null rows stay where they were.
      List<Object> sortedValues = new ArrayList<>();
      for (Row row : rows) {
        if (row.dims()[3] != null) {
          sortedValues.add(row.dims()[3]);
        }
      }
      sortedValues.sort(null);
      int next = 0;
      for (Row row : rows) {
        if (row.dims()[3] != null) {
          row.dims()[3] = sortedValues.get(next++);
        }
      }
      StarTree tree = roundTrip(build(rows, new int[] {1, 50, 100_000}[round % 3], Set.of()));
      for (int query = 0; query < 40; query++) {
        boolean[] grouped = new boolean[4];
        Object[][] allowedValues = new Object[4][];
        for (int d = 0; d < 4; d++) {
          grouped[d] = random.nextInt(3) == 0;
          if (random.nextInt(3) == 0) {
            allowedValues[d] = new Object[] {pick(random, d), pick(random, d)};
          }
        }
        assertThat(viaTree(tree, grouped, allowedValues))
            .as("round %d query %d", round, query)
            .isEqualTo(rowByRow(rows, grouped, allowedValues));
      }
    }
  }

  /**
   * With {@code minRowsPerRecord} above 1, sparse combinations keep one rolled-up record: a query
   * that leaves the last dimension alone is still answered exactly; one that filters or groups by
   * it is answered exactly when {@link StarTree#answers} says so, and refused otherwise.
   */
  @Test
  void rolledUpRecordsAnswerExactlyOrNotAtAll() throws Exception {
    Random random = new Random(2424);
    int rolledTrees = 0;
    int refused = 0;
    int answeredOnLast = 0;
    for (int round = 0; round < 24; round++) {
      List<Row> rows = randomRows(random, random.nextInt(1, 3000));
      int minRows = new int[] {2, 3, 5, 40}[round % 4];
      int maxLeaf = new int[] {1, 7, 100_000}[round % 3];
      Set<Integer> skip = round % 2 == 0 ? Set.of() : Set.of(1);
      StarTree built = build(rows, maxLeaf, minRows, skip);
      StarTree tree = roundTrip(built);
      assertThat(tree.rolledUpRecordCount()).isEqualTo(built.rolledUpRecordCount());
      if (tree.rolledUpRecordCount() > 0) {
        rolledTrees++;
      }
      for (int query = 0; query < 40; query++) {
        boolean[] grouped = new boolean[4];
        Object[][] allowedValues = new Object[4][];
        for (int d = 0; d < 4; d++) {
          grouped[d] = random.nextInt(4) == 0;
          if (random.nextInt(3) == 0) {
            allowedValues[d] = new Object[] {pick(random, d), pick(random, d)};
          }
        }
        boolean[][] allowed = allowed(tree, allowedValues);
        boolean lastUsed = grouped[3] || allowedValues[3] != null;
        if (!lastUsed) {
          assertThat(tree.answers(allowed, grouped)).isTrue();
        }
        long[] seen = new long[1];
        long traversed = tree.traverseIfAnswers(allowed, grouped, record -> seen[0]++);
        assertThat(traversed >= 0)
            .as("round %d query %d: one pass agrees with answers()", round, query)
            .isEqualTo(tree.answers(allowed, grouped));
        if (tree.answers(allowed, grouped)) {
          assertThat(traversed).isEqualTo(seen[0]);
          answeredOnLast += lastUsed ? 1 : 0;
          assertThat(viaTree(tree, grouped, allowedValues))
              .as("round %d query %d", round, query)
              .isEqualTo(rowByRow(rows, grouped, allowedValues));
        } else {
          refused++;
          assertThatThrownBy(() -> tree.traverse(allowed, grouped, record -> {}))
              .isInstanceOf(IllegalStateException.class)
              .hasMessageContaining("Cannot traverse star-tree: a rolled-up record of dimension d");
        }
      }
    }
    // The rounds must exercise all three outcomes, or this test proves nothing.
    assertThat(rolledTrees).isGreaterThan(12);
    assertThat(refused).isPositive();
    assertThat(answeredOnLast).isPositive();
  }

  /**
   * Rows of a dense combination keep their records; a sparse one's become one rolled-up record,
   * unless it holds at least {@link StarTreeConstruction#KEEP_SHARE} of the rows.
   */
  @Test
  void onlySparseCombinationsAreRolledUp() {
    List<Row> rows = new ArrayList<>();
    for (long second = 0; second < 100; second++) {
      for (int copy = 0; copy < 4; copy++) {
        rows.add(new Row(new Object[] {1L, "dense", 0.0, second}, second, 1.0));
      }
      // 40 rows of 440: under a tenth, one per second.
      if (second % 10 < 4) {
        rows.add(new Row(new Object[] {1L, "sparse", 0.0, second}, second, 1.0));
      }
    }
    StarTree tree = build(rows, 10_000, 2, Set.of());
    assertThat(tree.recordCount()).isEqualTo(101);
    assertThat(tree.rolledUpRecordCount()).isEqualTo(1);
    assertThat(tree.toString()).contains("records=101, rolledUp=1");
  }

  /**
   * A sparse combination holding a tenth of the rows or more keeps its per-value records: it is the
   * one whose rows cost most to read, and a query filtering its last dimension is answered.
   */
  @Test
  void aLargeSparseCombinationKeepsItsRecords() {
    List<Row> rows = new ArrayList<>();
    for (long second = 0; second < 100; second++) {
      for (int copy = 0; copy < 8; copy++) {
        rows.add(new Row(new Object[] {1L, "dense", 0.0, second}, second, 1.0));
      }
      // 100 rows of 900 (11%), one per second; 10 rows of "tail" (1%), one per second.
      rows.add(new Row(new Object[] {1L, "heavy", 0.0, second}, second, 1.0));
      if (second % 10 == 0) {
        rows.add(new Row(new Object[] {1L, "tail", 0.0, second}, second, 1.0));
      }
    }
    StarTree tree = build(rows, 10_000, 2, Set.of());
    assertThat(tree.rolledUpRecordCount()).isEqualTo(1);
    assertThat(tree.recordCount()).isEqualTo(201);
    boolean[] grouped = new boolean[4];
    Object[][] heavySeconds = {null, new Object[] {"heavy"}, null, new Object[] {3L, 4L}};
    boolean[][] allowed = allowed(tree, heavySeconds);
    assertThat(tree.answers(allowed, grouped)).isTrue();
    assertThat(viaTree(tree, grouped, heavySeconds))
        .isEqualTo(rowByRow(rows, grouped, heavySeconds));
    Object[][] tailSeconds = {null, new Object[] {"tail"}, null, new Object[] {10L}};
    assertThat(tree.answers(allowed(tree, tailSeconds), grouped)).isFalse();
  }

  /**
   * The sorted collection ({@link SortedRecords}) must build the very tree the hash table built:
   * the same records, aggregated in the same order, rolled up by the same rule, byte for byte; over
   * random rows, leaf sizes, roll-up thresholds, rows fed one by one and in batches.
   */
  @Test
  void sortedCollectionBuildsTheHashedTreeByteForByte() {
    Random random = new Random(8008);
    int rolledTrees = 0;
    for (int round = 0; round < 60; round++) {
      // Every sixth round has more rows than the radix sort's threshold and many gather blocks.
      int size =
          round % 6 == 0
              ? random.nextInt(SortedRecords.RADIX_MIN_ROWS, 5 * SortedRecords.RADIX_MIN_ROWS)
              : random.nextInt(0, 4000);
      List<Row> rows = randomRows(random, size);
      int minRows = new int[] {1, 2, 3, 40}[round % 4];
      int maxLeaf = new int[] {1, 7, 100_000}[round % 3];
      Set<Integer> skip = round % 2 == 0 ? Set.of() : Set.of(1);
      StarTreeBuilder sorted = builder(rows, maxLeaf, minRows, skip, round % 5 == 0);
      StarTreeBuilder hashed = builder(rows, maxLeaf, minRows, skip, false);
      StarTree sortedTree = sorted.build();
      StarTree hashedTree = hashed.buildHashed();
      assertThat(sortedTree.serialize())
          .as("round %d: %d rows, min rows %d", round, rows.size(), minRows)
          .isEqualTo(hashedTree.serialize());
      assertThat(sorted.collectedRecords()).isEqualTo(hashed.collectedRecords());
      rolledTrees += sortedTree.rolledUpRecordCount() > 0 ? 1 : 0;
    }
    assertThat(rolledTrees).isGreaterThan(10);
  }

  @Test
  void rolledUpIdOutsideTheLastDimensionIsRefused() {
    List<Row> rows = List.of(new Row(new Object[] {1L, "a", 1.0, 5L}, 1L, 1.0));
    byte[] bytes = build(rows, 1, Set.of()).serialize();
    // From the end: the root node (7 bytes), y's non-null count and three doubles (25), x's
    // non-null count, sum (two words) and extremes as one-byte varints (5), COUNT(*) (1), then the
    // four dimensions' ids of the one record. Star + 1 as the first one's id (3, for a dimension of
    // one value and no null) means rolled up, which only the last dimension may be.
    int at = bytes.length - 7 - 25 - 5 - 1 - 4;
    assertThat(bytes[at]).isEqualTo((byte) 0);
    bytes[at] = 3;
    assertThatThrownBy(() -> StarTree.parse(reader(bytes), 2))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("star-tree[0]")
        .hasMessageContaining("star-tree record 0 has id 3 for dimension 0");
  }

  @Test
  void corruptIdIsRefused() throws Exception {
    List<Row> rows = randomRows(new Random(1), 10);
    byte[] bytes = build(rows, 1, Set.of()).serialize();
    byte[] damaged = Arrays.copyOf(bytes, bytes.length - 3);
    assertThatThrownBy(() -> StarTree.parse(reader(damaged), 2))
        .isInstanceOf(CorruptSegmentException.class);
  }

  /**
   * Sketch columns (a LONG, a STRING with empty strings, a DOUBLE with -0.0 and NaN, NULLs): per
   * group of random queries, the union of the visited records' sketches has the composite estimate
   * of one sketch updated with the group's rows, the way the SQL function hashes them; with star
   * nodes, rolled-up records, both collections and a serialization round trip. Groups reach
   * thousands of values, so sketches leave the coupon list for the HLL mode.
   */
  @Test
  void sketchesEqualOneSketchOverTheRows() throws Exception {
    Random random = new Random(1204);
    int hllGroups = 0;
    for (int round = 0; round < 12; round++) {
      List<SketchRow> rows = randomSketchRows(random, random.nextInt(1, 6000));
      int maxLeaf = new int[] {1, 7, 100_000}[round % 3];
      int minRows = new int[] {1, 2, 40}[round % 3 == 0 ? 0 : round % 2 + 1];
      Set<Integer> skip = round % 2 == 0 ? Set.of() : Set.of(1);
      StarTreeBuilder hashedBuilder = sketchBuilder(rows, maxLeaf, minRows, skip);
      StarTree built = sketchBuilder(rows, maxLeaf, minRows, skip).build();
      assertThat(built.version()).isEqualTo(3);
      assertThat(built.serialize()).isEqualTo(hashedBuilder.buildHashed().serialize());
      StarTree tree = roundTrip(built);
      assertThat(tree.sketches()).isEqualTo(SKETCHES);
      for (int query = 0; query < 30; query++) {
        boolean[] grouped = new boolean[4];
        Object[][] allowedValues = new Object[4][];
        for (int d = 0; d < 4; d++) {
          grouped[d] = random.nextInt(4) == 0;
          if (random.nextInt(4) == 0) {
            allowedValues[d] = new Object[] {pick(random, d), pick(random, d)};
          }
        }
        if (!tree.answers(allowed(tree, allowedValues), grouped)) {
          continue;
        }
        Map<List<Object>, List<Double>> expected = sketchesRowByRow(rows, grouped, allowedValues);
        assertThat(sketchesViaTree(tree, grouped, allowedValues))
            .as("round %d query %d", round, query)
            .isEqualTo(expected);
        hllGroups += (int) expected.values().stream().filter(e -> e.get(0) > 500).count();
      }
    }
    assertThat(hllGroups).as("groups whose sketches are in HLL mode").isPositive();
  }

  /**
   * A part of layout 2 (before sketch columns), written by the previous release from {@code
   * randomRows(new Random(2026), 400)} with leaves of 7, {@code min-rows-per-record} 2 and no star
   * node on dimension 1: still read, still answering as the rows do, and a tree without sketch
   * columns is still written as that layout byte for byte.
   */
  @Test
  void aLayoutTwoPartIsStillRead() throws Exception {
    byte[] golden;
    try (var in = TestStarTree.class.getResourceAsStream("/golden/star-tree-v2.part")) {
      golden = in.readAllBytes();
    }
    StarTree tree = StarTree.parse(reader(golden), 2);
    assertThat(tree.sketches()).isEmpty();
    assertThat(tree.version()).isEqualTo(2);
    assertThat(tree.serialize()).isEqualTo(golden);
    List<Row> rows = randomRows(new Random(2026), 400);
    assertThat(build(rows, 7, 2, Set.of(1)).serialize()).isEqualTo(golden);
    Random random = new Random(3);
    int answered = 0;
    for (int query = 0; query < 60; query++) {
      boolean[] grouped = new boolean[4];
      Object[][] allowedValues = new Object[4][];
      for (int d = 0; d < 4; d++) {
        grouped[d] = random.nextInt(4) == 0;
        if (random.nextInt(3) == 0) {
          allowedValues[d] = new Object[] {pick(random, d), pick(random, d)};
        }
      }
      if (tree.answers(allowed(tree, allowedValues), grouped)) {
        answered++;
        assertThat(viaTree(tree, grouped, allowedValues))
            .as("query %d", query)
            .isEqualTo(rowByRow(rows, grouped, allowedValues));
      }
    }
    assertThat(answered).isGreaterThan(20);
    assertThatThrownBy(() -> StarTree.parse(reader(golden), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot parse star-tree layout version 1 (this reader reads 2 to 3)");
  }

  @Test
  void aSketchOfAnotherKindIsRefused() {
    List<SketchRow> rows = List.of(new SketchRow(new Object[] {1L, "a", 1.0, 5L}, 7L, null, null));
    byte[] bytes = sketchBuilder(rows, 1, 1, Set.of()).build().serialize();
    // The one sketch (u's: a coupon list of one value, 8 + 4 bytes) sits before the root node (7
    // bytes) and two empty sketches' lengths (2); its family id is its third byte.
    int at = bytes.length - 7 - 2 - 12 + 2;
    assertThat(bytes[at]).isEqualTo((byte) 7);
    bytes[at] = 3;
    assertThatThrownBy(() -> StarTree.parse(reader(bytes), 3))
        .isInstanceOf(CorruptSegmentException.class)
        .hasMessageContaining("star-tree record 0's sketch of u is not an HLL sketch of lgK 12");
  }

  private static final List<StarTreeSketch> SKETCHES =
      List.of(
          new StarTreeSketch("u", ValueType.LONG, 12),
          new StarTreeSketch("v", ValueType.STRING, 12),
          new StarTreeSketch("w", ValueType.DOUBLE, 12));

  private record SketchRow(Object[] dims, Long u, String v, Double w) {}

  private static List<SketchRow> randomSketchRows(Random random, int count) {
    List<SketchRow> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Object[] dims = new Object[4];
      for (int d = 0; d < 4; d++) {
        dims[d] = random.nextInt(8) == 0 ? null : pick(random, d);
      }
      Long u = random.nextInt(10) == 0 ? null : random.nextLong(0, 1_000_000);
      String v =
          random.nextInt(10) == 0
              ? null
              : random.nextInt(50) == 0 ? "" : "v" + random.nextInt(5000);
      Double w =
          random.nextInt(10) == 0
              ? null
              : new double[] {-0.0, 0.0, Double.NaN, random.nextInt(3000) / 8.0}[random.nextInt(4)];
      rows.add(new SketchRow(dims, u, v, w));
    }
    return rows;
  }

  private static StarTreeBuilder sketchBuilder(
      List<SketchRow> rows, int maxLeaf, int minRows, Set<Integer> skip) {
    StarTreeBuilder builder =
        new StarTreeBuilder(DIMENSIONS, METRICS, SKETCHES, maxLeaf, minRows, skip);
    int[] ids = new int[4];
    for (SketchRow row : rows) {
      for (int d = 0; d < 4; d++) {
        ids[d] = builder.valueId(d, row.dims()[d]);
      }
      builder.addRow(
          ids,
          new boolean[] {true, true, row.u() == null, row.v() == null, row.w() == null},
          new long[] {
            0,
            0,
            row.u() == null ? 0 : row.u(),
            row.v() == null ? 0 : builder.sketchStringId(1, row.v()),
            row.w() == null ? 0 : StarTreeSketch.canonicalBits(row.w())
          },
          new double[5]);
    }
    return builder;
  }

  /** Per group, the composite estimates of u's, v's and w's sketches. */
  private static Map<List<Object>, List<Double>> sketchesViaTree(
      StarTree tree, boolean[] grouped, Object[][] allowedValues) {
    Map<List<Object>, HllUnion[]> groups = new HashMap<>();
    tree.traverse(
        allowed(tree, allowedValues),
        grouped,
        record -> {
          List<Object> key = new ArrayList<>();
          for (int d = 0; d < 4; d++) {
            if (grouped[d]) {
              key.add(norm(tree.value(d, tree.id(record, d))));
            }
          }
          HllUnion[] unions =
              groups.computeIfAbsent(
                  key, k -> new HllUnion[] {new HllUnion(12), new HllUnion(12), new HllUnion(12)});
          for (int k = 0; k < 3; k++) {
            HllSketch sketch = tree.sketch(record, k);
            if (sketch != null) {
              unions[k].update(sketch);
            }
          }
        });
    Map<List<Object>, List<Double>> result = new HashMap<>();
    groups.forEach(
        (key, unions) -> {
          List<Double> estimates = new ArrayList<>();
          for (HllUnion union : unions) {
            estimates.add(union.getResult(TgtHllType.HLL_4).getCompositeEstimate());
          }
          result.put(key, estimates);
        });
    return result;
  }

  private static Map<List<Object>, List<Double>> sketchesRowByRow(
      List<SketchRow> rows, boolean[] grouped, Object[][] allowedValues) {
    Map<List<Object>, HllSketch[]> groups = new HashMap<>();
    for (SketchRow row : rows) {
      boolean passes = true;
      List<Object> key = new ArrayList<>();
      for (int d = 0; d < 4; d++) {
        Object value = row.dims()[d] == null ? null : norm(row.dims()[d]);
        if (allowedValues[d] != null
            && (value == null || !Arrays.asList(allowedValues[d]).contains(value))) {
          passes = false;
        }
        if (grouped[d]) {
          key.add(value);
        }
      }
      if (!passes) {
        continue;
      }
      HllSketch[] sketches =
          groups.computeIfAbsent(
              key,
              k ->
                  new HllSketch[] {
                    new HllSketch(12, TgtHllType.HLL_4),
                    new HllSketch(12, TgtHllType.HLL_4),
                    new HllSketch(12, TgtHllType.HLL_4)
                  });
      if (row.u() != null) {
        sketches[0].update(row.u());
      }
      if (row.v() != null) {
        if (row.v().isEmpty()) {
          sketches[1].update(Long.MIN_VALUE);
        } else {
          sketches[1].update(row.v());
        }
      }
      if (row.w() != null) {
        sketches[2].update(Double.doubleToLongBits(row.w() == 0.0 ? 0.0 : row.w()));
      }
    }
    Map<List<Object>, List<Double>> result = new HashMap<>();
    groups.forEach(
        (key, sketches) -> {
          List<Double> estimates = new ArrayList<>();
          for (HllSketch sketch : sketches) {
            estimates.add(sketch.getCompositeEstimate());
          }
          result.put(key, estimates);
        });
    return result;
  }

  private static List<Row> randomRows(Random random, int count) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Object[] dims = new Object[4];
      for (int d = 0; d < 4; d++) {
        dims[d] = random.nextInt(8) == 0 ? null : pick(random, d);
      }
      Long x =
          random.nextInt(10) == 0
              ? null
              : random.nextInt(20) == 0
                  ? Long.MAX_VALUE - random.nextInt(3)
                  : random.nextLong(-50, 50);
      Double y = random.nextInt(10) == 0 ? null : (double) random.nextInt(-100, 100) / 4;
      rows.add(new Row(dims, x, y));
    }
    return rows;
  }

  private static Object pick(Random random, int dimension) {
    return switch (dimension) {
      case 0 -> (long) random.nextInt(5);
      case 1 -> "s" + random.nextInt(7);
      case 2 -> random.nextInt(3) == 0 ? -0.0 : (double) random.nextInt(3);
      default -> (long) random.nextInt(40);
    };
  }

  private static StarTree build(List<Row> rows, int maxLeaf, Set<Integer> skip) {
    return build(rows, maxLeaf, 1, skip);
  }

  private static StarTree build(List<Row> rows, int maxLeaf, int minRows, Set<Integer> skip) {
    return builder(rows, maxLeaf, minRows, skip, false).build();
  }

  private static StarTreeBuilder builder(
      List<Row> rows, int maxLeaf, int minRows, Set<Integer> skip, boolean batched) {
    StarTreeBuilder builder = new StarTreeBuilder(DIMENSIONS, METRICS, maxLeaf, minRows, skip);
    if (batched) {
      int n = rows.size();
      int[][] ids = new int[4][n];
      boolean[][] nulls = new boolean[2][n];
      long[][] longs = {new long[n], null};
      double[][] doubles = {null, new double[n]};
      for (int r = 0; r < n; r++) {
        Row row = rows.get(r);
        for (int d = 0; d < 4; d++) {
          ids[d][r] = builder.valueId(d, row.dims()[d]);
        }
        nulls[0][r] = row.x() == null;
        nulls[1][r] = row.y() == null;
        longs[0][r] = row.x() == null ? 0 : row.x();
        doubles[1][r] = row.y() == null ? 0 : row.y();
      }
      builder.addRows(ids, nulls, longs, doubles, n);
      return builder;
    }
    int[] ids = new int[4];
    for (Row row : rows) {
      for (int d = 0; d < 4; d++) {
        ids[d] = builder.valueId(d, row.dims()[d]);
      }
      builder.addRow(
          ids,
          new boolean[] {row.x() == null, row.y() == null},
          new long[] {row.x() == null ? 0 : row.x(), 0},
          new double[] {0, row.y() == null ? 0 : row.y()});
    }
    return builder;
  }

  private static StarTree roundTrip(StarTree tree) throws CorruptSegmentException {
    return StarTree.parse(reader(tree.serialize()), tree.version());
  }

  private static PartReader reader(byte[] bytes) {
    return new PartReader(
        "test", "star-tree[0]", 0, ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
  }

  private static boolean[][] allowed(StarTree tree, Object[][] allowedValues) {
    boolean[][] allowed = new boolean[4][];
    for (int d = 0; d < 4; d++) {
      if (allowedValues[d] != null) {
        allowed[d] = new boolean[tree.idCount(d)];
        for (int id = 0; id < tree.idCount(d); id++) {
          Object value = tree.value(d, id);
          allowed[d][id] = value != null && Arrays.asList(allowedValues[d]).contains(norm(value));
        }
      }
    }
    return allowed;
  }

  /** Per group: count, x's count, sum, min, max, y's count, sum, min, max. */
  private static Map<List<Object>, List<Object>> viaTree(
      StarTree tree, boolean[] grouped, Object[][] allowedValues) {
    boolean[][] allowed = allowed(tree, allowedValues);
    Map<List<Object>, List<Object>> groups = new HashMap<>();
    tree.traverse(
        allowed,
        grouped,
        record -> {
          List<Object> key = new ArrayList<>();
          for (int d = 0; d < 4; d++) {
            if (grouped[d]) {
              key.add(norm(tree.value(d, tree.id(record, d))));
            }
          }
          long[] acc =
              groups.computeIfAbsent(key, k -> newState()).get(0) instanceof long[] l ? l : null;
          double[] dacc = (double[]) groups.get(key).get(1);
          acc[0] += tree.count(record);
          acc[1] += tree.nonNull(record, 0);
          acc[2] += tree.sumLow(record, 0); // wraps like the row-by-row sum below
          if (tree.nonNull(record, 0) > 0) {
            acc[3] = Math.max(acc[3], tree.longMax(record, 0));
          }
          dacc[0] += tree.nonNull(record, 1);
          dacc[1] += tree.doubleSum(record, 1);
          if (tree.nonNull(record, 1) > 0) {
            dacc[2] = Math.min(dacc[2], tree.doubleMin(record, 1));
          }
        });
    return finish(groups);
  }

  private static Map<List<Object>, List<Object>> rowByRow(
      List<Row> rows, boolean[] grouped, Object[][] allowedValues) {
    Map<List<Object>, List<Object>> groups = new HashMap<>();
    for (Row row : rows) {
      boolean passes = true;
      List<Object> key = new ArrayList<>();
      for (int d = 0; d < 4; d++) {
        Object value = row.dims()[d] == null ? null : norm(row.dims()[d]);
        if (allowedValues[d] != null
            && (value == null || !Arrays.asList(allowedValues[d]).contains(value))) {
          passes = false;
        }
        if (grouped[d]) {
          key.add(value);
        }
      }
      if (!passes) {
        continue;
      }
      List<Object> state = groups.computeIfAbsent(key, k -> newState());
      long[] acc = (long[]) state.get(0);
      double[] dacc = (double[]) state.get(1);
      acc[0]++;
      if (row.x() != null) {
        acc[1]++;
        acc[2] += row.x();
        acc[3] = Math.max(acc[3], row.x());
      }
      if (row.y() != null) {
        dacc[0]++;
        dacc[1] += row.y();
        dacc[2] = Math.min(dacc[2], row.y());
      }
    }
    return finish(groups);
  }

  private static Map<List<Object>, List<Object>> finish(Map<List<Object>, List<Object>> groups) {
    Map<List<Object>, List<Object>> result = new HashMap<>();
    groups.forEach(
        (key, state) -> {
          long[] acc = (long[]) state.get(0);
          double[] dacc = (double[]) state.get(1);
          // Quarters sum exactly in doubles whatever the order.
          result.put(key, List.of(acc[0], acc[1], acc[2], acc[3], dacc[0], dacc[1], dacc[2]));
        });
    return result;
  }

  private static List<Object> newState() {
    long[] acc = new long[4];
    acc[3] = Long.MIN_VALUE;
    double[] dacc = new double[4];
    dacc[2] = Double.POSITIVE_INFINITY;
    return new ArrayList<>(List.of(acc, dacc));
  }

  private static Object norm(Object value) {
    return value instanceof Double d && d == 0.0 ? 0.0 : value;
  }
}
