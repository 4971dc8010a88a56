package io.shelfmark.generator.distribution;

import static io.shelfmark.generator.distribution.Vocabulary.keyId;

/**
 * Draws the columns of one row other than {@code org_id} and {@code logical_timestamp}, each
 * independently of the others and of time:
 *
 * <pre>
 * resolution     15000 (60%), 60000 (30%), 300000 (10%)
 * metric         largest org: tk_cache 40%, else Zipf(1) over the other 499 names;
 *                other orgs:  tk_cache 0.1%, else the same Zipf
 * sum_rollup     exponential, mean 100 × resolution / 15000 (a coarser rollup sums more)
 * latest_rollup  normal, mean 50, standard deviation 15
 * dimensions     see {@link DimensionValues}; 3 to 8 keys, uniform
 * </pre>
 *
 * Stateless; the caller owns the random stream and the row.
 */
public final class RowSampler {
  public static final double LARGEST_ORG_TK_CACHE_SHARE = 0.40;
  public static final double OTHER_ORGS_TK_CACHE_SHARE = 0.001;
  public static final double NODE_PRESENCE = 0.95;
  public static final int MIN_DIMENSIONS = 3;

  /** Zipf over metric names 1..499 (name 0, tk_cache, is drawn separately). */
  private static final ZipfTable METRIC_RANKS = new ZipfTable(MetricNames.COUNT - 1, 1.0);

  private static final ZipfTable SERVICE_RANKS =
      new ZipfTable(DimensionValues.SERVICES.size(), 1.0);
  private static final int TK_CACHE_ID = Vocabulary.METRIC_BASE;
  private static final int REGIONS = DimensionValues.REGIONS.size();
  private static final int CLUSTERS = DimensionValues.CLUSTERS.size();
  private static final int PODS = DimensionValues.PODS.size();
  private static final int HOSTS = DimensionValues.HOSTS.size();
  private static final int TEAMS = DimensionValues.TEAMS.size();
  private static final int NODES = DimensionValues.NODES.size();
  private static final int SERVICE_KEY = keyId(0);
  private static final int REGION_KEY = keyId(1);
  private static final int NODE_KEY = keyId(2);

  private RowSampler() {}

  /**
   * Fills {@code row}'s metric, resolution, rollups and dimensions from {@code random}. When {@code
   * needle} is true the row is a needle: metric {@code tk_cache}, the given resolution and node
   * {@code xyz}; its other columns are drawn as usual.
   */
  public static void sample(
      RandomStream random, int orgRank, MetricsRow row, boolean needle, int needleResolution) {
    int resolution = resolution(random.nextInt(10));
    double tkCacheShare = orgRank == 0 ? LARGEST_ORG_TK_CACHE_SHARE : OTHER_ORGS_TK_CACHE_SHARE;
    row.metricId =
        random.nextDouble() < tkCacheShare
            ? TK_CACHE_ID
            : TK_CACHE_ID + 1 + METRIC_RANKS.sample(random.nextDouble());
    if (needle) {
      row.metricId = TK_CACHE_ID;
      resolution = needleResolution;
    }
    row.resolution = resolution;
    row.sumRollup = random.nextExponential(100.0) * (resolution / 15000.0);
    row.latestRollup = random.nextGaussian(50.0, 15.0);
    sampleDimensions(random, row, needle);
  }

  private static int resolution(int decile) {
    if (decile < 6) {
      return 15000;
    }
    return decile < 9 ? 60000 : 300000;
  }

  private static void sampleDimensions(RandomStream random, MetricsRow row, boolean needle) {
    row.dimensionCount = 0;
    int service = SERVICE_RANKS.sample(random.nextDouble());
    row.addDimension(SERVICE_KEY, Vocabulary.SERVICE_BASE + service);
    int region = random.nextInt(REGIONS);
    row.addDimension(REGION_KEY, Vocabulary.REGION_BASE + region);
    int total = MIN_DIMENSIONS + random.nextInt(MetricsRow.MAX_DIMENSIONS - MIN_DIMENSIONS + 1);
    boolean hasNode = random.nextDouble() < NODE_PRESENCE;
    int node = random.nextInt(NODES);
    if (needle) {
      row.addDimension(NODE_KEY, Vocabulary.NEEDLE_NODE_ID);
    } else if (hasNode) {
      row.addDimension(NODE_KEY, Vocabulary.NODE_BASE + node);
    }
    // With a node, 0..5 optional keys follow; without, 1..6: a row always has 3 to 8 keys.
    int optional = total - row.dimensionCount;
    for (int i = 0; i < optional; i++) {
      row.addDimension(
          keyId(DimensionValues.FIRST_OPTIONAL_KEY + i), optionalValue(i, region, random));
    }
  }

  private static int optionalValue(int key, int region, RandomStream random) {
    return switch (key) {
      case 0 -> Vocabulary.ENV_BASE + environment(random.nextInt(10));
      case 1 -> Vocabulary.AZ_BASE + region * 3 + random.nextInt(3);
      case 2 -> Vocabulary.CLUSTER_BASE + random.nextInt(CLUSTERS);
      case 3 -> Vocabulary.POD_BASE + random.nextInt(PODS);
      case 4 -> Vocabulary.HOST_BASE + random.nextInt(HOSTS);
      case 5 -> Vocabulary.TEAM_BASE + random.nextInt(TEAMS);
      default -> throw new IllegalStateException("No optional dimension key at index " + key);
    };
  }

  /** prod 70%, staging 20%, dev 10%. */
  private static int environment(int decile) {
    if (decile < 7) {
      return 0;
    }
    return decile < 9 ? 1 : 2;
  }
}
