package io.shelfmark.cli.bench;

import java.util.Locale;

/**
 * Where the node under test keeps segments and Parquet pages, as BENCHMARK.md compares them.
 *
 * <ul>
 *   <li>{@link #REMOTE}: no local storage; segment parts are range-read from the segment store
 *       through the memory tier of the cache (config {@code server.segment-mode: remote}, {@code
 *       cache.disk.max-size: 0}).
 *   <li>{@link #PINNED}: segments downloaded to local disk and memory-mapped; Parquet pages come
 *       from object storage on every query ({@code pinned}, {@code cache.disk.max-size: 0}).
 *   <li>{@link #PINNED_PAGES}: as pinned, plus the disk page cache, so a hot query may read no byte
 *       from object storage ({@code pinned}, {@code cache.disk.max-size} above zero).
 * </ul>
 */
public enum BenchMode {
  REMOTE("remote"),
  PINNED("pinned"),
  PINNED_PAGES("pinned+pages");

  private final String id;

  BenchMode(String id) {
    this.id = id;
  }

  /** The name on the command line and in {@code bench.json}; never changes. */
  public String id() {
    return id;
  }

  /** Whether segments are pinned on local disk. */
  public boolean pinned() {
    return this != REMOTE;
  }

  /** Whether the disk page cache is on. */
  public boolean pageCache() {
    return this == PINNED_PAGES;
  }

  /**
   * The mode named {@code id} ({@code remote}, {@code pinned} or {@code pinned+pages}).
   *
   * @throws IllegalArgumentException naming the accepted ids
   */
  public static BenchMode fromId(String id) {
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (BenchMode mode : values()) {
      if (mode.id.equals(wanted)) {
        return mode;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use bench mode '" + id + "': unknown (use remote, pinned or pinned+pages)");
  }

  @Override
  public String toString() {
    return id;
  }
}
