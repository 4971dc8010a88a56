package io.shelfmark.generator.distribution;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * How many rows of {@code obs.metrics} go where, for a given row count and seed: the 50 org ids,
 * the exact row count of every (org, day) partition and of every one-minute slice inside it, and
 * the seed of every slice's random stream. Nothing here is random at the row level: counts come
 * from {@link LargestRemainder}, so they sum to the requested total exactly and a partition's size
 * is known before its first row is generated.
 *
 * <h2>The shape</h2>
 *
 * <pre>
 * orgs        org 184833768: 25% of rows; 49 other 9-digit ids drawn from the seed share the
 *             remaining 75% with Zipf(1) weights (rank k gets 1/k)
 * days        2025-08-02, -03, -04 (UTC). 93% of rows are uniform over the three days; 7% are
 *             an "incident" burst uniform over 2025-08-03 13:00-14:00, for every org alike
 * slices      one minute each, 1440 a day; a slice's timestamps are uniform inside it
 * </pre>
 *
 * <p>So the benchmark's hour window [13:00, 14:00] of 2025-08-03 holds {@code 0.93/72 + 0.07 ≈
 * 8.29%} of all rows.
 *
 * <p>Immutable and safe for concurrent use.
 */
public final class MetricsDistribution {
  /** The largest org, holding {@link #LARGEST_ORG_SHARE} of all rows. */
  public static final long LARGEST_ORG_ID = 184_833_768L;

  public static final int ORG_COUNT = 50;
  public static final double LARGEST_ORG_SHARE = 0.25;
  public static final double OTHER_ORGS_ZIPF_EXPONENT = 1.0;

  /** 2025-08-02T00:00:00Z in epoch millis: the first instant of the table. */
  public static final long START_MILLIS = 1_754_092_800_000L;

  public static final int DAYS = 3;
  public static final long DAY_MILLIS = 86_400_000L;
  public static final long SLICE_MILLIS = 60_000L;
  public static final int SLICES_PER_DAY = (int) (DAY_MILLIS / SLICE_MILLIS);

  /** The share of rows in the incident burst. */
  public static final double INCIDENT_SHARE = 0.07;

  /** The incident's day (2025-08-03) as an index from {@link #START_MILLIS}. */
  public static final int INCIDENT_DAY = 1;

  /** The incident's first minute of its day (13:00) and its length in minutes. */
  public static final int INCIDENT_FIRST_SLICE = 13 * 60;

  public static final int INCIDENT_SLICES = 60;

  private static final long ORG_ID_STREAM = 0x4F52475F49445321L;
  private static final long SLICE_STREAM = 0x534C494345524F57L;
  private static final long MIN_ORG_ID = 100_000_000L;
  private static final int ORG_ID_RANGE = 900_000_000;

  private final long rows;
  private final long seed;
  private final long[] orgIds;
  private final long[] partitionRows;

  private MetricsDistribution(long rows, long seed) {
    if (rows < 0) {
      throw new IllegalArgumentException("Cannot distribute rows: row count is negative: " + rows);
    }
    this.rows = rows;
    this.seed = seed;
    this.orgIds = drawOrgIds(seed);
    double[] weights = new double[ORG_COUNT * DAYS];
    for (int rank = 0; rank < ORG_COUNT; rank++) {
      for (int day = 0; day < DAYS; day++) {
        weights[rank * DAYS + day] = orgShare(rank) * dayShare(day);
      }
    }
    this.partitionRows = LargestRemainder.allocate(rows, weights);
  }

  /** The distribution of {@code rows} rows generated from {@code seed}. */
  public static MetricsDistribution of(long rows, long seed) {
    return new MetricsDistribution(rows, seed);
  }

  public long rows() {
    return rows;
  }

  public long seed() {
    return seed;
  }

  /** The id of the org of rank {@code rank}; rank 0 is {@link #LARGEST_ORG_ID}. */
  public long orgId(int rank) {
    return orgIds[rank];
  }

  /** The share of all rows that the org of rank {@code rank} holds. */
  public static double orgShare(int rank) {
    if (rank == 0) {
      return LARGEST_ORG_SHARE;
    }
    double harmonic = 0;
    for (int k = 1; k < ORG_COUNT; k++) {
      harmonic += 1.0 / Math.pow(k, OTHER_ORGS_ZIPF_EXPONENT);
    }
    return (1 - LARGEST_ORG_SHARE) / Math.pow(rank, OTHER_ORGS_ZIPF_EXPONENT) / harmonic;
  }

  /** The share of an org's rows that fall on day {@code day}. */
  public static double dayShare(int day) {
    double uniform = (1 - INCIDENT_SHARE) / DAYS;
    return day == INCIDENT_DAY ? uniform + INCIDENT_SHARE : uniform;
  }

  /** The first instant of day {@code day}, which is also its partition value. */
  public static long dayStartMillis(int day) {
    return START_MILLIS + day * DAY_MILLIS;
  }

  /** The first instant of minute {@code slice} of day {@code day}. */
  public static long sliceStartMillis(int day, int slice) {
    return dayStartMillis(day) + slice * SLICE_MILLIS;
  }

  /** The exact number of rows in partition (org of rank {@code rank}, day {@code day}). */
  public long partitionRows(int rank, int day) {
    return partitionRows[rank * DAYS + day];
  }

  /**
   * The exact number of rows in each minute of partition ({@code rank}, {@code day}), summing to
   * {@link #partitionRows}. Allocates a new array (a partition's worth of work is far larger).
   */
  public int[] sliceRows(int rank, int day) {
    double[] weights = new double[SLICES_PER_DAY];
    double uniform = (1 - INCIDENT_SHARE) / DAYS / SLICES_PER_DAY;
    Arrays.fill(weights, uniform);
    if (day == INCIDENT_DAY) {
      for (int slice = INCIDENT_FIRST_SLICE;
          slice < INCIDENT_FIRST_SLICE + INCIDENT_SLICES;
          slice++) {
        weights[slice] += INCIDENT_SHARE / INCIDENT_SLICES;
      }
    }
    long[] counts = LargestRemainder.allocate(partitionRows(rank, day), weights);
    int[] result = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      result[i] = Math.toIntExact(counts[i]);
    }
    return result;
  }

  /** The seed of the random stream of one minute slice; depends only on the coordinates. */
  public long sliceSeed(int rank, int day, int slice) {
    return SeedHash.of(seed, SLICE_STREAM, orgIds[rank], day, slice);
  }

  private static long[] drawOrgIds(long seed) {
    RandomStream random = new RandomStream(SeedHash.of(seed, ORG_ID_STREAM));
    Set<Long> ids = new LinkedHashSet<>();
    ids.add(LARGEST_ORG_ID);
    while (ids.size() < ORG_COUNT) {
      // Nine digits, never the largest org's id, never a repeat (the set skips duplicates).
      ids.add(MIN_ORG_ID + random.nextInt(ORG_ID_RANGE));
    }
    long[] result = new long[ORG_COUNT];
    int i = 0;
    for (long id : ids) {
      result[i++] = id;
    }
    return result;
  }

  @Override
  public String toString() {
    return "MetricsDistribution{rows=" + rows + ", seed=" + seed + "}";
  }
}
