package io.shelfmark.controller.assignment;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Places each segment of a table on {@code replication} servers, balanced by segment bytes, moving
 * as little as possible from the current placement.
 *
 * <p>Three passes, each deterministic (ties go to the smaller server id and file path, so every
 * controller computes the same placement from the same inputs):
 *
 * <ol>
 *   <li><b>keep</b> every current replica that is on a server still eligible, up to the
 *       replication: a controller restart or a new snapshot moves nothing that is in place;
 *   <li><b>fill</b> missing replicas, largest segment first, each on the least loaded eligible
 *       server that does not hold it yet (a new file, a lost server);
 *   <li><b>balance</b>: while moving one replica from the most loaded server to the least loaded
 *       one lowers the larger of their two loads, move the largest such replica (a server that
 *       joined gets its share; a server that comes back finds its old replicas placed elsewhere and
 *       takes only what balancing gives it).
 * </ol>
 *
 * The replication is capped at the number of eligible servers; with none, every file is unplaced. A
 * draining server is simply not eligible: its replicas are filled elsewhere, and the servers keep
 * serving the old placement until the new one is ready (see the routing), so a move never leaves a
 * file without a serving replica.
 */
public final class ReplicaAssignment {
  private ReplicaAssignment() {}

  /**
   * @param segmentBytes each file to place, by data file path, with its segment's size in bytes
   * @param servers the servers that may hold replicas
   * @param replication replicas wanted per file (at least 1)
   * @param current the current placement, by data file path; files and servers no longer present
   *     are ignored
   * @return the servers of each file of {@code segmentBytes}, by data file path, sorted by server
   *     id
   */
  public static Map<String, List<String>> assign(
      Map<String, Long> segmentBytes,
      Set<String> servers,
      int replication,
      Map<String, List<String>> current) {
    requireNonNull(segmentBytes, "segmentBytes is null");
    requireNonNull(servers, "servers is null");
    requireNonNull(current, "current is null");
    checkArgument(replication >= 1, "replication must be at least 1: %s", replication);
    TreeSet<String> eligible = new TreeSet<>(servers);
    int wanted = Math.min(replication, eligible.size());
    Map<String, Long> load = new HashMap<>();
    eligible.forEach(server -> load.put(server, 0L));
    Map<String, Set<String>> placed = new TreeMap<>();

    for (Map.Entry<String, Long> file : new TreeMap<>(segmentBytes).entrySet()) {
      Set<String> holders = new LinkedHashSet<>();
      for (String server : current.getOrDefault(file.getKey(), List.of())) {
        if (holders.size() < wanted && eligible.contains(server) && holders.add(server)) {
          load.merge(server, file.getValue(), Long::sum);
        }
      }
      placed.put(file.getKey(), holders);
    }

    List<String> largestFirst = new ArrayList<>(placed.keySet());
    largestFirst.sort(
        Comparator.comparing((String file) -> segmentBytes.get(file))
            .reversed()
            .thenComparing(Comparator.naturalOrder()));
    for (String file : largestFirst) {
      Set<String> holders = placed.get(file);
      while (holders.size() < wanted) {
        String target = leastLoaded(eligible, load, holders);
        holders.add(target);
        load.merge(target, segmentBytes.get(file), Long::sum);
      }
    }

    balance(segmentBytes, eligible, load, placed, largestFirst);

    Map<String, List<String>> assignment = new TreeMap<>();
    placed.forEach((file, holders) -> assignment.put(file, List.copyOf(new TreeSet<>(holders))));
    return assignment;
  }

  /**
   * Moves replicas from the most to the least loaded server while that lowers the larger load of
   * the two. Each move strictly lowers the sum of squared loads, so this ends; the bound on moves
   * only guards against a mistake.
   */
  private static void balance(
      Map<String, Long> segmentBytes,
      TreeSet<String> eligible,
      Map<String, Long> load,
      Map<String, Set<String>> placed,
      List<String> largestFirst) {
    if (eligible.size() < 2) {
      return;
    }
    long maxMoves = (long) placed.size() * eligible.size() + 1;
    for (long move = 0; move < maxMoves; move++) {
      String heaviest = mostLoaded(eligible, load);
      String lightest = leastLoaded(eligible, load, Set.of());
      long gap = load.get(heaviest) - load.get(lightest);
      String moved = null;
      for (String file : largestFirst) {
        long bytes = segmentBytes.get(file);
        Set<String> holders = placed.get(file);
        // Moving b bytes lowers the larger of the two loads only when b < gap.
        if (bytes > 0 && bytes < gap && holders.contains(heaviest) && !holders.contains(lightest)) {
          moved = file;
          break;
        }
      }
      if (moved == null) {
        return;
      }
      long bytes = segmentBytes.get(moved);
      placed.get(moved).remove(heaviest);
      placed.get(moved).add(lightest);
      load.merge(heaviest, -bytes, Long::sum);
      load.merge(lightest, bytes, Long::sum);
    }
  }

  private static String leastLoaded(Set<String> eligible, Map<String, Long> load, Set<String> not) {
    String best = null;
    for (String server : eligible) {
      if (!not.contains(server) && (best == null || load.get(server) < load.get(best))) {
        best = server;
      }
    }
    return requireNonNull(best, "no eligible server left");
  }

  private static String mostLoaded(Set<String> eligible, Map<String, Long> load) {
    String best = null;
    for (String server : eligible) {
      if (best == null || load.get(server) > load.get(best)) {
        best = server;
      }
    }
    return best;
  }
}
