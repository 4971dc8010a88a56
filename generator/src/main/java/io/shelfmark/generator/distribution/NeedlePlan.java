package io.shelfmark.generator.distribution;

import static io.shelfmark.generator.distribution.MetricsDistribution.INCIDENT_DAY;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the 40 rows with {@code dimensions['node'] = 'xyz'} go. Their number does not grow with the
 * table, so query Q4 stays a needle at every scale:
 *
 * <pre>
 * rows  org rank  minute (2025-08-03)   resolution  matches Q4?
 *  30   0         13:54 .. 13:59, 5 each  15000     yes
 *   4   0         13:55, 13:57, 2 each    60000     no: resolution
 *   3   0         13:40                   15000     no: before Q4's 6-minute window
 *   3   1         13:56                   15000     no: another org
 * </pre>
 *
 * All carry metric {@code tk_cache}, so each decoy differs from a Q4 match in exactly one
 * predicate. A slice holding fewer rows than its needles (tables under about 50,000 rows) gets as
 * many needles as it has rows; from 100,000 rows on, all 40 are present.
 *
 * <p>Immutable.
 */
public final class NeedlePlan {
  /** The needles, in the order above. */
  public static final List<Needle> NEEDLES =
      List.of(
          new Needle(0, INCIDENT_DAY, 13 * 60 + 54, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 55, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 56, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 57, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 58, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 59, 5, 15000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 55, 2, 60000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 57, 2, 60000),
          new Needle(0, INCIDENT_DAY, 13 * 60 + 40, 3, 15000),
          new Needle(1, INCIDENT_DAY, 13 * 60 + 56, 3, 15000));

  /** How many needle rows match every predicate of Q4 (when the table has them all). */
  public static final int Q4_MATCHES = 30;

  private static final int[] NONE = new int[0];
  private static final Map<Long, int[]> RESOLUTIONS_BY_SLICE = index();

  private NeedlePlan() {}

  /**
   * The resolutions of the needle rows in one slice, one entry per row (empty when the slice has
   * none). Callers must not modify the array.
   */
  public static int[] resolutionsAt(int orgRank, int day, int slice) {
    return RESOLUTIONS_BY_SLICE.getOrDefault(key(orgRank, day, slice), NONE);
  }

  /** The total needle rows when every slice is large enough. */
  public static int totalRows() {
    int total = 0;
    for (Needle needle : NEEDLES) {
      total += needle.count();
    }
    return total;
  }

  private static Map<Long, int[]> index() {
    Map<Long, int[]> bySlice = new HashMap<>();
    for (Needle needle : NEEDLES) {
      long key = key(needle.orgRank(), needle.day(), needle.slice());
      int[] previous = bySlice.getOrDefault(key, NONE);
      int[] merged = Arrays.copyOf(previous, previous.length + needle.count());
      Arrays.fill(merged, previous.length, merged.length, needle.resolution());
      bySlice.put(key, merged);
    }
    return Map.copyOf(bySlice);
  }

  private static long key(int orgRank, int day, int slice) {
    return ((long) orgRank * MetricsDistribution.DAYS + day) * MetricsDistribution.SLICES_PER_DAY
        + slice;
  }
}
