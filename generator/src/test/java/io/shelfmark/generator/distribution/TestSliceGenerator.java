package io.shelfmark.generator.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestSliceGenerator {
  private static final int INCIDENT_DAY = MetricsDistribution.INCIDENT_DAY;

  @Test
  void rowsAreTimeOrderedInsideTheirMinute() {
    MetricsDistribution distribution = MetricsDistribution.of(1_000_000, 42);
    List<String> rows = generate(distribution, 3, 2, 600, 500);
    assertThat(rows).hasSize(500);
    long start = MetricsDistribution.sliceStartMillis(2, 600);
    long previous = Long.MIN_VALUE;
    for (String row : rows) {
      long timestamp =
          Long.parseLong(
              row.substring(row.indexOf("logical_timestamp=") + 18, row.indexOf(", sum_rollup")));
      assertThat(timestamp).isBetween(start, start + 59_999).isGreaterThanOrEqualTo(previous);
      previous = timestamp;
    }
  }

  @Test
  void aSliceDependsOnlyOnItsCoordinatesAndSeed() {
    MetricsDistribution distribution = MetricsDistribution.of(1_000_000, 42);
    List<String> first = generate(distribution, 5, 0, 10, 300);
    generate(distribution, 6, 1, 11, 1000);
    assertThat(generate(distribution, 5, 0, 10, 300)).isEqualTo(first);
    assertThat(generate(MetricsDistribution.of(5, 42), 5, 0, 10, 300)).isEqualTo(first);
    assertThat(generate(MetricsDistribution.of(1_000_000, 43), 5, 0, 10, 300)).isNotEqualTo(first);
  }

  @Test
  void rowsRespectTheDimensionRules() {
    MetricsDistribution distribution = MetricsDistribution.of(1_000_000, 42);
    SliceGenerator generator = new SliceGenerator(distribution);
    int[] rows = {0};
    int[] withNode = {0};
    generator.generate(
        0,
        0,
        100,
        20_000,
        row -> {
          rows[0]++;
          assertThat(row.dimensionCount()).isBetween(3, 8);
          assertThat(row.dimensionKey(0)).isEqualTo("service");
          assertThat(row.dimensionKey(1)).isEqualTo("region");
          Set<String> keys = new HashSet<>();
          for (int i = 0; i < row.dimensionCount(); i++) {
            keys.add(row.dimensionKey(i));
          }
          assertThat(keys).hasSize(row.dimensionCount());
          withNode[0] += keys.contains("node") ? 1 : 0;
          assertThat(row.sumRollup()).isFinite().isNotNegative();
          assertThat(row.latestRollup()).isFinite();
          assertThat(row.resolution()).isIn(15000, 60000, 300000);
          assertThat(row.orgId()).isEqualTo(184_833_768L);
        });
    assertThat(rows[0]).isEqualTo(20_000);
    assertThat(withNode[0] / 20_000.0).isBetween(0.94, 0.96);
  }

  @Test
  void needlesReplaceEvenlySpacedRowsOfTheirSlice() {
    MetricsDistribution distribution = MetricsDistribution.of(1_000_000, 42);
    // 13:55 holds five Q4 needles and two resolution-60000 decoys.
    List<String> rows = generate(distribution, 0, INCIDENT_DAY, 13 * 60 + 55, 70);
    List<Integer> needleRows = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).contains("node=xyz")) {
        needleRows.add(i);
        assertThat(rows.get(i)).contains("metric=tk_cache");
      }
    }
    assertThat(needleRows).containsExactly(0, 10, 20, 30, 40, 50, 60);
    assertThat(
            rows.stream()
                .filter(row -> row.contains("node=xyz") && row.contains("resolution=60000")))
        .hasSize(2);
  }

  @Test
  void aSliceSmallerThanItsNeedlesHoldsOnlyNeedles() {
    MetricsDistribution distribution = MetricsDistribution.of(1_000, 42);
    assertThat(generate(distribution, 0, INCIDENT_DAY, 13 * 60 + 54, 3))
        .hasSize(3)
        .allMatch(row -> row.contains("node=xyz"));
  }

  @Test
  void needlePlanPlacesFortyRowsOfWhichThirtyMatchQ4() {
    assertThat(NeedlePlan.totalRows()).isEqualTo(40);
    int matches = 0;
    long windowStart = 1_754_229_600_000L - 360_000;
    for (Needle needle : NeedlePlan.NEEDLES) {
      long start = MetricsDistribution.sliceStartMillis(needle.day(), needle.slice());
      boolean inWindow = start >= windowStart && start + 59_999 <= 1_754_229_600_000L;
      if (needle.orgRank() == 0 && needle.resolution() == 15000 && inWindow) {
        matches += needle.count();
      }
    }
    assertThat(matches).isEqualTo(NeedlePlan.Q4_MATCHES).isEqualTo(30);
  }

  private static List<String> generate(
      MetricsDistribution distribution, int rank, int day, int slice, int count) {
    List<String> rows = new ArrayList<>();
    new SliceGenerator(distribution)
        .generate(rank, day, slice, count, row -> rows.add(row.toString()));
    return rows;
  }
}
