package io.shelfmark.cli.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The target for the broker → server hop: on loopback, a query through the cluster takes at
 * most {@value #HOP_MS} ms more (hot median) than on the all-in-one node. One check per query and
 * mode measured on both topologies, ids {@code hop/<query>/<mode>}.
 */
public final class HopTargets {
  /** The most the hop may add to a query's hot median, in ms. */
  public static final double HOP_MS = 3;

  private HopTargets() {}

  public static List<TargetCheck> evaluate(List<HopRecord> hops) {
    List<TargetCheck> checks = new ArrayList<>();
    for (HopRecord hop : hops) {
      boolean met = hop.hopMs() <= HOP_MS;
      checks.add(
          new TargetCheck(
              "hop/" + hop.query() + "/" + hop.mode(),
              "broker → server hop, "
                  + hop.query()
                  + " "
                  + hop.mode()
                  + " (cluster of "
                  + hop.servers()
                  + " servers hot median − all-in-one hot median)",
              HOP_MS,
              hop.hopMs(),
              "ms",
              met ? TargetCheck.MET : TargetCheck.MISSED,
              Targets.detail(hop.hopMs(), HOP_MS, "ms", true, met)));
    }
    return List.copyOf(checks);
  }
}
