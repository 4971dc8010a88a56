package io.shelfmark.generator.distribution;

import java.util.ArrayList;
import java.util.List;

/**
 * Every string the generator writes (metric names, dimension keys and values) in one table, each
 * with a small int id, so a row holds ids and a writer can turn an id into ready-made bytes (see
 * {@link MetricsRow}) without encoding a string per row. Each category occupies a contiguous id
 * range starting at its {@code *_BASE} constant. Immutable; about 170,000 words (~10 MB).
 */
public final class Vocabulary {
  private static final List<String> WORDS = new ArrayList<>();

  public static final int METRIC_BASE = append(MetricNames.all());
  public static final int KEY_BASE = append(DimensionValues.KEYS);
  public static final int SERVICE_BASE = append(DimensionValues.SERVICES);
  public static final int REGION_BASE = append(DimensionValues.REGIONS);
  public static final int ENV_BASE = append(DimensionValues.ENVS);
  public static final int AZ_BASE = append(DimensionValues.AZS);
  public static final int CLUSTER_BASE = append(DimensionValues.CLUSTERS);
  public static final int POD_BASE = append(DimensionValues.PODS);
  public static final int HOST_BASE = append(DimensionValues.HOSTS);
  public static final int TEAM_BASE = append(DimensionValues.TEAMS);
  public static final int NODE_BASE = append(DimensionValues.NODES);
  public static final int NEEDLE_NODE_ID = append(List.of(DimensionValues.NEEDLE_NODE));

  private static final String[] TABLE = WORDS.toArray(String[]::new);

  private Vocabulary() {}

  /** The number of words; ids are {@code 0..size()-1}. */
  public static int size() {
    return TABLE.length;
  }

  /** The word with id {@code id}. */
  public static String word(int id) {
    return TABLE[id];
  }

  /** The id of dimension key {@code key} ({@link DimensionValues#KEYS} index). */
  static int keyId(int keyIndex) {
    return KEY_BASE + keyIndex;
  }

  private static int append(List<String> words) {
    int base = WORDS.size();
    WORDS.addAll(words);
    return base;
  }
}
