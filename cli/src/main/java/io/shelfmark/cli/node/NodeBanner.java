package io.shelfmark.cli.node;

import io.shelfmark.config.cluster.CacheConfig;

/** What a long-running node tells its operator in its banner. */
public final class NodeBanner {
  private NodeBanner() {}

  /** One line saying whether Parquet pages are cached, and where. */
  public static String cacheLine(CacheConfig cache) {
    if (cache.diskMaxSize().bytes() == 0) {
      return "  page cache off (cache.disk.max-size is 0: Parquet pages are read from storage"
          + " every time; segments and posting lists use memory up to "
          + cache.memoryMaxSize()
          + " and "
          + cache.postingListsMaxSize()
          + ")";
    }
    return "  page cache on: memory "
        + cache.memoryMaxSize()
        + ", disk "
        + cache.diskMaxSize()
        + " in "
        + cache.diskDirectory().toAbsolutePath();
  }

  /**
   * One line naming the web console's address: the broker's URL with {@code /}.
   *
   * @param credentials whether users are configured (the browser then asks for one)
   */
  public static String consoleLine(String url, boolean credentials) {
    return "  web console: "
        + url
        + "/"
        + (credentials ? " (the browser asks for a configured user and password)" : "");
  }
}
