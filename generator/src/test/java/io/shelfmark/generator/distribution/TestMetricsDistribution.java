package io.shelfmark.generator.distribution;

import static io.shelfmark.generator.distribution.MetricsDistribution.DAYS;
import static io.shelfmark.generator.distribution.MetricsDistribution.ORG_COUNT;
import static io.shelfmark.generator.distribution.MetricsDistribution.SLICES_PER_DAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TestMetricsDistribution {
  @Test
  void timeConstantsNameTheBenchmarkWindow() {
    assertThat(Instant.ofEpochMilli(MetricsDistribution.START_MILLIS))
        .isEqualTo(Instant.parse("2025-08-02T00:00:00Z"));
    assertThat(
            Instant.ofEpochMilli(
                MetricsDistribution.sliceStartMillis(
                    MetricsDistribution.INCIDENT_DAY, MetricsDistribution.INCIDENT_FIRST_SLICE)))
        .isEqualTo(Instant.parse("2025-08-03T13:00:00Z"));
    assertThat(MetricsDistribution.dayStartMillis(DAYS))
        .isEqualTo(Instant.parse("2025-08-05T00:00:00Z").toEpochMilli());
  }

  @Test
  void orgIdsAreFiftyDistinctNineDigitIdsStartingWithTheLargestOrg() {
    MetricsDistribution distribution = MetricsDistribution.of(1000, 42);
    Set<Long> ids = new HashSet<>();
    for (int rank = 0; rank < ORG_COUNT; rank++) {
      long id = distribution.orgId(rank);
      assertThat(id).isBetween(100_000_000L, 999_999_999L);
      ids.add(id);
    }
    assertThat(ids).hasSize(ORG_COUNT);
    assertThat(distribution.orgId(0)).isEqualTo(184_833_768L);
    assertThat(MetricsDistribution.of(5, 42).orgId(7)).isEqualTo(distribution.orgId(7));
    assertThat(MetricsDistribution.of(1000, 43).orgId(7)).isNotEqualTo(distribution.orgId(7));
  }

  @Test
  void orgSharesAreTheLargestOrgsQuarterAndZipfForTheRest() {
    double total = 0;
    for (int rank = 0; rank < ORG_COUNT; rank++) {
      total += MetricsDistribution.orgShare(rank);
    }
    assertThat(total).isCloseTo(1.0, within(1e-12));
    assertThat(MetricsDistribution.orgShare(0)).isEqualTo(0.25);
    assertThat(MetricsDistribution.orgShare(1) / MetricsDistribution.orgShare(2))
        .isCloseTo(2.0, within(1e-12));
    assertThat(MetricsDistribution.orgShare(1)).isLessThan(0.25);
  }

  @Test
  void partitionAndSliceCountsSumExactlyToTheRequestedRows() {
    for (long rows : new long[] {1, 149, 100_003, 1_000_000}) {
      MetricsDistribution distribution = MetricsDistribution.of(rows, 7);
      long total = 0;
      for (int rank = 0; rank < ORG_COUNT; rank++) {
        for (int day = 0; day < DAYS; day++) {
          long partition = distribution.partitionRows(rank, day);
          long slices = 0;
          for (int count : distribution.sliceRows(rank, day)) {
            slices += count;
          }
          assertThat(slices).as("rows %d rank %d day %d", rows, rank, day).isEqualTo(partition);
          total += partition;
        }
      }
      assertThat(total).isEqualTo(rows);
    }
  }

  @Test
  void hourWindowHoldsEightPointThreePercentOfRows() {
    MetricsDistribution distribution = MetricsDistribution.of(100_000_000, 1);
    long inWindow = 0;
    long largestOrg = 0;
    for (int rank = 0; rank < ORG_COUNT; rank++) {
      int[] slices = distribution.sliceRows(rank, MetricsDistribution.INCIDENT_DAY);
      for (int slice = 13 * 60; slice < 14 * 60; slice++) {
        inWindow += slices[slice];
      }
      for (int day = 0; day < DAYS; day++) {
        largestOrg += rank == 0 ? distribution.partitionRows(rank, day) : 0;
      }
    }
    assertThat(inWindow / 1e8).isCloseTo(0.93 / 72 + 0.07, within(1e-4));
    assertThat(largestOrg / 1e8).isCloseTo(0.25, within(1e-6));
  }

  @Test
  void sliceSeedsDependOnlyOnCoordinatesAndSeed() {
    MetricsDistribution a = MetricsDistribution.of(10, 3);
    MetricsDistribution b = MetricsDistribution.of(1_000_000, 3);
    assertThat(a.sliceSeed(4, 1, 100)).isEqualTo(b.sliceSeed(4, 1, 100));
    Set<Long> seeds = new HashSet<>();
    for (int slice = 0; slice < SLICES_PER_DAY; slice++) {
      seeds.add(a.sliceSeed(0, 0, slice));
      seeds.add(a.sliceSeed(0, 1, slice));
      seeds.add(a.sliceSeed(1, 0, slice));
    }
    assertThat(seeds).hasSize(3 * SLICES_PER_DAY);
    assertThat(MetricsDistribution.of(10, 4).sliceSeed(4, 1, 100))
        .isNotEqualTo(a.sliceSeed(4, 1, 100));
  }

  @Test
  void rejectsNegativeRows() {
    assertThatThrownBy(() -> MetricsDistribution.of(-3, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot distribute rows: row count is negative: -3");
  }
}
