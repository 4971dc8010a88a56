package io.shelfmark.cli.bench.report;

import static java.util.Objects.requireNonNull;

/**
 * The cost of the broker → server hop for one query and mode: the same query, hot, on the
 * all-in-one node (the broker calls the server in process) and through a local cluster (the broker
 * sends each server a plan fragment over Arrow Flight on 127.0.0.1), in one run.
 *
 * @param query Q1 … Q4
 * @param mode {@code pinned} or {@code pinned+pages}
 * @param servers server processes of the cluster
 * @param allInOneHotMedianMs the all-in-one node's hot median (client-observed over HTTP)
 * @param clusterHotMedianMs the cluster broker's hot median (client-observed over HTTP)
 * @param hopMs {@code clusterHotMedianMs - allInOneHotMedianMs}: what the hop adds as a client sees
 *     it (the target is at most 3 ms on loopback)
 * @param allInOneExplain the all-in-one node's own view (EXPLAIN ANALYZE); null when not measured
 * @param clusterExplain the cluster broker's own view; null when not measured
 * @param explainHopMs {@code clusterExplain.serverMs - allInOneExplain.serverMs}: the hop as the
 *     broker times it (fragment sent to partial result back, against the in-process call); null
 *     when either is missing
 */
public record HopRecord(
    String query,
    String mode,
    int servers,
    double allInOneHotMedianMs,
    double clusterHotMedianMs,
    double hopMs,
    ExplainTimes allInOneExplain,
    ExplainTimes clusterExplain,
    Double explainHopMs) {
  public HopRecord {
    requireNonNull(query, "query is null");
    requireNonNull(mode, "mode is null");
  }

  /**
   * The hop of {@code query} from its two records and the two EXPLAIN views (either may be null).
   */
  public static HopRecord of(
      QueryRecord allInOne,
      QueryRecord cluster,
      int servers,
      ExplainTimes allInOneExplain,
      ExplainTimes clusterExplain) {
    double a = allInOne.hot().medianMs();
    double c = cluster.hot().medianMs();
    return new HopRecord(
        cluster.query(),
        cluster.mode(),
        servers,
        a,
        c,
        c - a,
        allInOneExplain,
        clusterExplain,
        allInOneExplain == null || clusterExplain == null
            ? null
            : clusterExplain.serverMs() - allInOneExplain.serverMs());
  }
}
