package io.shelfmark.cli.node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.shelfmark.config.cluster.CacheConfig;
import java.util.Map;
import org.slf4j.LoggerFactory;

/** What a long-running node tells its operator once it serves: its caches, then its log. */
public final class NodeBanner {
  /** The variable that sets the log level of every command (logback.xml reads it). */
  static final String LOG_LEVEL_VARIABLE = "SHELFMARK_LOG_LEVEL";

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
   * From now on the node logs what it does at INFO (onboarding, snapshot refreshes, tables fully
   * indexed, segments repaired, warm-up), unless {@code SHELFMARK_LOG_LEVEL} chose a level.
   * One-shot commands keep the quieter default (WARN) so their output stays their answer; a server
   * that prints nothing after its banner leaves its operator guessing.
   */
  public static void logActivity(Map<String, String> environment) {
    if (environment.containsKey(LOG_LEVEL_VARIABLE)) {
      return;
    }
    if (LoggerFactory.getLogger("io.shelfmark") instanceof Logger logger) {
      logger.setLevel(Level.INFO);
    }
  }
}
