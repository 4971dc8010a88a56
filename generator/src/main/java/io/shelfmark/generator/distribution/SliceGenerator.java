package io.shelfmark.generator.distribution;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * Generates the rows of one-minute slices of one partition, in timestamp order: draws the slice's
 * timestamps uniformly inside the minute, sorts them (a small primitive array), then draws each
 * row's other columns in that order and hands the reused row to a {@link RowSink}. The needles of
 * {@link NeedlePlan} replace evenly spaced rows of their slice.
 *
 * <p>Every slice restarts the random stream from {@link MetricsDistribution#sliceSeed}, so a
 * slice's rows depend only on (seed, org, day, minute) and not on what was generated before it.
 *
 * <p>Not thread-safe: one generator per writer thread. Allocation happens only when a slice is
 * larger than every slice before it.
 */
public final class SliceGenerator {
  /** Receives generated rows; the row is reused, so a sink must copy what it keeps. */
  @FunctionalInterface
  public interface RowSink {
    void accept(MetricsRow row);
  }

  private final MetricsDistribution distribution;
  private final RandomStream random = new RandomStream(0);
  private final MetricsRow row = new MetricsRow();
  private long[] timestamps = new long[1024];

  public SliceGenerator(MetricsDistribution distribution) {
    this.distribution = requireNonNull(distribution, "distribution is null");
  }

  /**
   * Generates the {@code rows} rows of minute {@code slice} of partition ({@code orgRank}, {@code
   * day}) into {@code sink}. {@code rows} must be the distribution's count for that slice for the
   * table to be the one the distribution describes.
   */
  public void generate(int orgRank, int day, int slice, int rows, RowSink sink) {
    if (rows == 0) {
      return;
    }
    random.reset(distribution.sliceSeed(orgRank, day, slice));
    if (timestamps.length < rows) {
      timestamps = new long[Math.max(rows, timestamps.length * 2)];
    }
    long start = MetricsDistribution.sliceStartMillis(day, slice);
    int width = (int) MetricsDistribution.SLICE_MILLIS;
    for (int i = 0; i < rows; i++) {
      timestamps[i] = start + random.nextInt(width);
    }
    Arrays.sort(timestamps, 0, rows);

    int[] needles = NeedlePlan.resolutionsAt(orgRank, day, slice);
    int needleCount = Math.min(needles.length, rows);
    int needle = 0;
    int nextNeedleRow = needleCount > 0 ? 0 : -1;
    long orgId = distribution.orgId(orgRank);
    for (int i = 0; i < rows; i++) {
      row.orgId = orgId;
      row.logicalTimestamp = timestamps[i];
      if (i == nextNeedleRow) {
        RowSampler.sample(random, orgRank, row, true, needles[needle]);
        needle++;
        // Spread the needles evenly over the slice: row floor(j * rows / count) is needle j.
        nextNeedleRow = needle < needleCount ? (int) ((long) needle * rows / needleCount) : -1;
      } else {
        RowSampler.sample(random, orgRank, row, false, 0);
      }
      sink.accept(row);
    }
  }
}
