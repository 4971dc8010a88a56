package io.shelfmark.config.cluster;

/**
 * Where a server keeps the segments it serves ({@code server.segment-mode}). Parquet pages are
 * cached on local disk too when {@code cache.disk.max-size} is above zero.
 */
public enum SegmentMode {
  /**
   * Segments are downloaded once to the data directory and memory-mapped: an index lookup costs no
   * request to object storage.
   */
  PINNED("pinned"),
  /**
   * No local storage for segments: their parts are read from the segment store with ranged reads,
   * through the memory tier of the cache only.
   */
  REMOTE("remote");

  private final String configName;

  SegmentMode(String configName) {
    this.configName = configName;
  }

  /** The name used in config files, such as {@code pinned}. */
  public String configName() {
    return configName;
  }
}
