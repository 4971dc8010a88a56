package io.shelfmark.generator.distribution;

/**
 * A group of rows carrying {@code dimensions['node'] = 'xyz'}, the needle of query Q4: {@code
 * count} rows of the org of rank {@code orgRank}, in minute {@code slice} of day {@code day}, with
 * metric {@code tk_cache} and the given resolution. Their other columns (service, values, other
 * dimensions) are drawn like any row's, so the services vary.
 *
 * @param orgRank the org's rank in {@link MetricsDistribution} (0 is the largest org)
 * @param day the day index from {@link MetricsDistribution#START_MILLIS}
 * @param slice the minute of the day
 * @param count how many needle rows the slice holds
 * @param resolution the rows' resolution
 */
public record Needle(int orgRank, int day, int slice, int count, int resolution) {
  public Needle {
    if (orgRank < 0 || orgRank >= MetricsDistribution.ORG_COUNT) {
      throw new IllegalArgumentException("Cannot place needle: org rank out of range: " + orgRank);
    }
    if (day < 0 || day >= MetricsDistribution.DAYS) {
      throw new IllegalArgumentException("Cannot place needle: day out of range: " + day);
    }
    if (slice < 0 || slice >= MetricsDistribution.SLICES_PER_DAY) {
      throw new IllegalArgumentException("Cannot place needle: minute out of range: " + slice);
    }
    if (count <= 0) {
      throw new IllegalArgumentException("Cannot place needle: count is " + count + " (need > 0)");
    }
  }
}
