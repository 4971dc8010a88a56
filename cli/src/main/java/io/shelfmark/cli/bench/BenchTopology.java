package io.shelfmark.cli.bench;

import java.util.Locale;

/**
 * How the node under test is laid out.
 *
 * <ul>
 *   <li>{@link #ALL_IN_ONE}: every role in one process (the benchmark's JVM, or a child JVM for
 *       cold runs); the broker reaches the server through the in-process dispatcher.
 *   <li>{@link #CLUSTER}: a local cluster of real processes ({@code cluster up}: ZooKeeper, a
 *       controller, a broker and {@code --servers} servers on 127.0.0.1); the broker sends each
 *       server a plan fragment over Arrow Flight. The difference between the two is the broker →
 *       server hop.
 * </ul>
 */
public enum BenchTopology {
  ALL_IN_ONE("all-in-one"),
  CLUSTER("cluster");

  private final String id;

  BenchTopology(String id) {
    this.id = id;
  }

  /** The name on the command line and in {@code bench.json}; never changes. */
  public String id() {
    return id;
  }

  /**
   * The topology named {@code id} ({@code all-in-one} or {@code cluster}).
   *
   * @throws IllegalArgumentException naming the accepted ids
   */
  public static BenchTopology fromId(String id) {
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (BenchTopology topology : values()) {
      if (topology.id.equals(wanted)) {
        return topology;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use bench topology '" + id + "': unknown (use all-in-one or cluster)");
  }

  @Override
  public String toString() {
    return id;
  }
}
