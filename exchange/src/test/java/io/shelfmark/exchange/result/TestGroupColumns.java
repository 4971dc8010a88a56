package io.shelfmark.exchange.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.Vectors;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Groups held as columns merge and finish to exactly what the same groups held as objects give: the
 * same groups in the same order, the same states bit for bit, the same final rows.
 */
class TestGroupColumns {
  private static final String SQL =
      "SELECT ts, COUNT(*), SUM(d), SUM(x), AVG(d), AVG(x), MIN(x), MAX(k) FROM t GROUP BY ts";

  @Test
  void columnarMergeEqualsTheBoxedMergeOnRandomPartials() {
    QueryPlan plan = TestResultFinisher.PLANNER.plan(SQL + " ORDER BY 3 DESC, 1 LIMIT 7");
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      int partialCount = 1 + random.nextInt(6);
      int keyRange = 1 + random.nextInt(round % 2 == 0 ? 20 : 5_000);
      List<PartialResult> columnar = new ArrayList<>();
      List<PartialResult> boxed = new ArrayList<>();
      for (int p = 0; p < partialCount; p++) {
        GroupColumns groups = randomGroups(random, keyRange, random.nextInt(3) == 0 ? 0 : 200);
        columnar.add(PartialResult.ofGroups(groups, ExecutionStatistics.EMPTY));
        boxed.add(PartialResult.ofGroups(new ArrayList<>(groups), ExecutionStatistics.EMPTY));
      }
      PartialResult fromColumns =
          PartialResult.mergeAll(columnar, () -> {}, PartialResult.MergeLimits.NONE);
      PartialResult fromObjects =
          PartialResult.mergeAll(boxed, () -> {}, PartialResult.MergeLimits.NONE);
      assertThat(fromObjects.groups()).isNotInstanceOf(GroupColumns.class);
      if (columnar.stream().filter(partial -> !partial.groups().isEmpty()).count() > 1) {
        assertThat(fromColumns.groups()).isInstanceOf(GroupColumns.class);
      }
      assertThat(new ArrayList<>(fromColumns.groups()))
          .as("round %d", round)
          .containsExactlyElementsOf(fromObjects.groups());
      assertThat(ResultFinisher.finish(plan, fromColumns))
          .as("round %d", round)
          .isEqualTo(ResultFinisher.finish(plan, fromObjects));
      QueryPlan unordered = TestResultFinisher.PLANNER.plan(SQL);
      assertThat(ResultFinisher.finish(unordered, fromColumns))
          .isEqualTo(ResultFinisher.finish(unordered, fromObjects));
    }
  }

  @Test
  void columnarMergeChecksTheGroupLimitAsItGrows() {
    Random random = new Random(7);
    List<PartialResult> partials = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      partials.add(
          PartialResult.ofGroups(randomGroups(random, 1 << 30, 5_000), ExecutionStatistics.EMPTY));
    }
    AtomicLong largest = new AtomicLong();
    PartialResult.MergeLimits limits =
        new PartialResult.MergeLimits(
            count -> {
              largest.accumulateAndGet(count, Math::max);
              if (count > 10_000) {
                throw new IllegalStateException("too many groups: " + count);
              }
            },
            count -> {});
    assertThatThrownBy(() -> PartialResult.mergeAll(partials, () -> {}, limits))
        .hasMessageContaining("too many groups");
    assertThat(largest.get()).isBetween(10_001L, 15_000L);
  }

  @Test
  void columnarMergeGrowsPastItsFirstCapacity() {
    // Two partials of 600,000 nearly distinct groups: 1.2M input groups, more than the merge's
    // first capacity (2^20), so every state column and the key table grow while merging.
    Random random = new Random(3);
    List<PartialResult> columnar = new ArrayList<>();
    List<PartialResult> boxed = new ArrayList<>();
    for (int p = 0; p < 2; p++) {
      GroupColumns groups = randomGroups(random, 1 << 30, 600_000);
      columnar.add(PartialResult.ofGroups(groups, ExecutionStatistics.EMPTY));
      boxed.add(PartialResult.ofGroups(new ArrayList<>(groups), ExecutionStatistics.EMPTY));
    }
    PartialResult fromColumns =
        PartialResult.mergeAll(columnar, () -> {}, PartialResult.MergeLimits.NONE);
    PartialResult fromObjects =
        PartialResult.mergeAll(boxed, () -> {}, PartialResult.MergeLimits.NONE);
    assertThat(fromColumns.groups()).isInstanceOf(GroupColumns.class);
    assertThat(fromColumns.groups().size())
        .isEqualTo(fromObjects.groups().size())
        .isGreaterThan(1 << 20);
    // Element by element: AssertJ's containsExactly compares lists this long in quadratic time.
    List<Group> expected = fromObjects.groups();
    List<Group> actual = fromColumns.groups();
    for (int g = 0; g < expected.size(); g++) {
      if (!actual.get(g).equals(expected.get(g))) {
        assertThat(actual.get(g)).as("group %d", g).isEqualTo(expected.get(g));
      }
    }
  }

  @Test
  void partialResultKeepsColumnsWithoutBoxingThem() {
    GroupColumns groups = randomGroups(new Random(1), 100, 50);
    assertThat(PartialResult.ofGroups(groups, ExecutionStatistics.EMPTY).groups()).isSameAs(groups);
  }

  /** {@code count} groups of distinct random timestamp keys (a NULL among them now and then). */
  private static GroupColumns randomGroups(Random random, int keyRange, int count) {
    List<Object> keys = new ArrayList<>();
    java.util.Set<Object> seen = new java.util.HashSet<>();
    while (keys.size() < Math.min(count, keyRange)) {
      Object key = random.nextInt(50) == 0 ? null : (long) random.nextInt(keyRange);
      if (seen.add(key)) {
        keys.add(key);
      }
    }
    int size = keys.size();
    long[] counts = new long[size + random.nextInt(3)]; // arrays may be longer than the groups
    double[] doubleSums = new double[size];
    long[] doubleCounts = new long[size];
    long[] high = new long[size];
    long[] low = new long[size];
    long[] longCounts = new long[size];
    AggregateState[] mins = new AggregateState[size];
    AggregateState[] maxes = new AggregateState[size];
    for (int g = 0; g < size; g++) {
      counts[g] = random.nextInt(1_000);
      doubleCounts[g] = random.nextInt(4);
      doubleSums[g] = doubleCounts[g] == 0 ? 0 : random.nextGaussian() * 1e6;
      longCounts[g] = random.nextInt(4);
      // A 128-bit sum as two words: a value that fits a LONG once the partials are added.
      long sum = longCounts[g] == 0 ? 0 : random.nextInt(1_000_000) - 500_000;
      low[g] = sum;
      high[g] = sum < 0 ? -1 : 0;
      mins[g] = new AggregateState.Extreme(random.nextBoolean() ? null : random.nextLong(), false);
      maxes[g] =
          new AggregateState.Extreme(random.nextBoolean() ? null : "v" + random.nextInt(99), true);
    }
    Vector key = Vectors.ofBoxed(PrimitiveType.TIMESTAMP, keys);
    return new GroupColumns(
        size,
        List.of(key),
        List.of(
            new StateColumn.Counts(counts),
            new StateColumn.DoubleSums(doubleSums, doubleCounts),
            new StateColumn.LongSums(high, low, longCounts),
            new StateColumn.DoubleSums(doubleSums.clone(), doubleCounts.clone()),
            new StateColumn.LongSums(high.clone(), low.clone(), longCounts.clone()),
            new StateColumn.States(mins),
            new StateColumn.States(maxes)));
  }
}
