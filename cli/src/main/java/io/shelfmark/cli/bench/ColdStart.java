package io.shelfmark.cli.bench;

import java.util.Locale;

/**
 * Where the cold run of a query runs (option {@code --cold}).
 *
 * <ul>
 *   <li>{@link #PROCESS} (the default): a fresh child JVM per mode and query, running an all-in-one
 *       node: class loading, JIT, caches and segment readers all start empty, as the "cold
 *       (fresh process, empty caches)" asks.
 *   <li>{@link #IN_JVM}: a fresh all-in-one node inside the benchmark's own JVM: new caches and
 *       segment readers, but classes loaded and the JIT warm. Quicker to start; kept for comparison
 *       with earlier runs.
 * </ul>
 */
public enum ColdStart {
  IN_JVM("in-jvm"),
  PROCESS("process");

  private final String id;

  ColdStart(String id) {
    this.id = id;
  }

  /** The name on the command line; never changes. */
  public String id() {
    return id;
  }

  /**
   * The cold start named {@code id} ({@code in-jvm} or {@code process}).
   *
   * @throws IllegalArgumentException naming the accepted ids
   */
  public static ColdStart fromId(String id) {
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (ColdStart cold : values()) {
      if (cold.id.equals(wanted)) {
        return cold;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use --cold '" + id + "': unknown (use process or in-jvm)");
  }

  @Override
  public String toString() {
    return id;
  }
}
