package io.shelfmark.generator.distribution;

/**
 * One row of {@code obs.metrics}, mutable and reused for every row a writer produces, so the hot
 * loop allocates nothing. Strings are held as {@link Vocabulary} ids (a writer maps them to
 * pre-encoded bytes); the dimensions are parallel key/value id arrays in a fixed key order
 * (service, region, node, then optional keys) rather than a {@code Map}.
 *
 * <p>Not thread-safe; owned by one writer.
 */
public final class MetricsRow {
  /** The most dimension entries a row can carry. */
  public static final int MAX_DIMENSIONS = 8;

  long orgId;
  int metricId;
  int resolution;
  long logicalTimestamp;
  double sumRollup;
  double latestRollup;
  final int[] dimensionKeyIds = new int[MAX_DIMENSIONS];
  final int[] dimensionValueIds = new int[MAX_DIMENSIONS];
  int dimensionCount;

  public long orgId() {
    return orgId;
  }

  /** The metric's {@link Vocabulary} id. */
  public int metricId() {
    return metricId;
  }

  public String metric() {
    return Vocabulary.word(metricId);
  }

  public int resolution() {
    return resolution;
  }

  public long logicalTimestamp() {
    return logicalTimestamp;
  }

  public double sumRollup() {
    return sumRollup;
  }

  public double latestRollup() {
    return latestRollup;
  }

  /** The number of dimension entries, 3 to {@link #MAX_DIMENSIONS}. */
  public int dimensionCount() {
    return dimensionCount;
  }

  /** The {@link Vocabulary} id of entry {@code index}'s key. */
  public int dimensionKeyId(int index) {
    return dimensionKeyIds[index];
  }

  /** The {@link Vocabulary} id of entry {@code index}'s value. */
  public int dimensionValueId(int index) {
    return dimensionValueIds[index];
  }

  public String dimensionKey(int index) {
    return Vocabulary.word(dimensionKeyIds[index]);
  }

  public String dimensionValue(int index) {
    return Vocabulary.word(dimensionValueIds[index]);
  }

  void addDimension(int keyId, int valueId) {
    dimensionKeyIds[dimensionCount] = keyId;
    dimensionValueIds[dimensionCount] = valueId;
    dimensionCount++;
  }

  @Override
  public String toString() {
    StringBuilder dimensions = new StringBuilder("{");
    for (int i = 0; i < dimensionCount; i++) {
      dimensions.append(i == 0 ? "" : ", ").append(dimensionKey(i)).append('=');
      dimensions.append(dimensionValue(i));
    }
    return "MetricsRow{org_id="
        + orgId
        + ", metric="
        + metric()
        + ", resolution="
        + resolution
        + ", logical_timestamp="
        + logicalTimestamp
        + ", sum_rollup="
        + sumRollup
        + ", latest_rollup="
        + latestRollup
        + ", dimensions="
        + dimensions.append('}')
        + "}";
  }
}
