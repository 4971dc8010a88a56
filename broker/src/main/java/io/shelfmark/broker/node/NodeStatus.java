package io.shelfmark.broker.node;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One process of the deployment as the console's nodes page shows it ({@code GET /nodes}).
 *
 * @param id unique while the process lives, such as {@code all-in-one@127.0.0.1:8099}
 * @param roles the roles it plays ({@code controller}, {@code broker}, {@code server})
 * @param host the address it advertises
 * @param ports what listens where, by name ({@code broker-http}, {@code server-rpc}, ...)
 * @param health {@code OK}, {@code DEGRADED} (a dependency of this process fails its probe), {@code
 *     LIVE} (another process, registered in the cluster: its own {@code /health} tells more)
 * @param startedAtMillis when the process started, milliseconds since the epoch
 * @param segments segments the process serves; -1 when this broker cannot see them (another process
 *     of a cluster)
 * @param cache use of each tier of the process's cache; empty when it has none or this broker
 *     cannot see it
 */
public record NodeStatus(
    String id,
    List<String> roles,
    String host,
    Map<String, Integer> ports,
    String health,
    long startedAtMillis,
    long segments,
    List<CacheTierUse> cache) {
  public NodeStatus {
    requireNonNull(id, "id is null");
    roles = List.copyOf(requireNonNull(roles, "roles is null"));
    requireNonNull(host, "host is null");
    ports = new TreeMap<>(requireNonNull(ports, "ports is null"));
    requireNonNull(health, "health is null");
    cache = List.copyOf(requireNonNull(cache, "cache is null"));
  }

  /**
   * What one cache tier holds and how it has served.
   *
   * @param tier {@code memory} or {@code disk}
   * @param usedBytes bytes held now
   * @param maxBytes the tier's bound (0: the tier is off)
   * @param entries entries held now (an estimate while evictions are pending)
   * @param hits reads the tier served since the process started
   * @param misses reads the tier could not serve
   * @param evictions entries evicted to stay within the bound
   */
  public record CacheTierUse(
      String tier,
      long usedBytes,
      long maxBytes,
      long entries,
      long hits,
      long misses,
      long evictions) {
    public CacheTierUse {
      requireNonNull(tier, "tier is null");
    }
  }
}
