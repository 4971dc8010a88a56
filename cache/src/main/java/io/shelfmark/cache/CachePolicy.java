package io.shelfmark.cache;

import static java.util.Objects.requireNonNull;

/**
 * Which tiers one read may use, chosen per call site. For example: segment bytes read remotely
 * {@link #DISK_ONLY} (large, re-read across queries, not worth heap), Parquet footers and
 * dictionary pages {@link #MEMORY_AND_DISK}, data pages {@link #MEMORY_ONLY}, one-off bulk reads
 * such as an index build {@link #NONE}.
 *
 * <p>A read looks only in the tiers its policy names and fills only those. A tier the cache was
 * configured without is skipped. {@link #NONE} still joins a concurrent read of the same range, so
 * identical concurrent requests are fetched once, but it never stores anything.
 */
public enum CachePolicy {
  /** Fetch every time; never store. */
  NONE("none", false, false),
  /** Memory tier only. */
  MEMORY_ONLY("memory", true, false),
  /** Disk tier only. */
  DISK_ONLY("disk", false, true),
  /** Memory first, then disk; a disk hit is copied into memory. */
  MEMORY_AND_DISK("memory-and-disk", true, true);

  private final String configValue;
  private final boolean memory;
  private final boolean disk;

  CachePolicy(String configValue, boolean memory, boolean disk) {
    this.configValue = configValue;
    this.memory = memory;
    this.disk = disk;
  }

  public boolean usesMemory() {
    return memory;
  }

  public boolean usesDisk() {
    return disk;
  }

  /**
   * The spelling in configuration files: {@code none}, {@code memory}, {@code disk}, {@code
   * memory-and-disk}.
   */
  public String configValue() {
    return configValue;
  }

  /** Parses a {@link #configValue()}. */
  public static CachePolicy fromConfigValue(String value) {
    requireNonNull(value, "value is null");
    for (CachePolicy policy : values()) {
      if (policy.configValue.equals(value)) {
        return policy;
      }
    }
    throw new IllegalArgumentException(
        "Cannot parse cache policy: " + value + " (use none, memory, disk or memory-and-disk)");
  }
}
