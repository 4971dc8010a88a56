package io.shelfmark.controller.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TestReplicaAssignment {
  @Test
  void placesEachFileOnDistinctServersBalancedByBytes() {
    Map<String, Long> files = files(120, 7);
    Map<String, List<String>> placed =
        ReplicaAssignment.assign(files, Set.of("s1", "s2", "s3", "s4"), 2, Map.of());

    assertThat(placed).containsOnlyKeys(files.keySet());
    placed.values().forEach(servers -> assertThat(servers).hasSize(2).doesNotHaveDuplicates());
    assertBalanced(files, placed);
  }

  @Test
  void capsReplicationAtTheServersThereAre() {
    Map<String, List<String>> placed =
        ReplicaAssignment.assign(files(10, 1), Set.of("only"), 2, Map.of());
    placed.values().forEach(servers -> assertThat(servers).containsExactly("only"));
    assertThat(ReplicaAssignment.assign(files(3, 1), Set.of(), 2, Map.of()).values())
        .allSatisfy(servers -> assertThat(servers).isEmpty());
  }

  @Test
  void samePlacementAgainMovesNothing() {
    Map<String, Long> files = files(80, 3);
    Set<String> servers = Set.of("s1", "s2", "s3");
    Map<String, List<String>> first = ReplicaAssignment.assign(files, servers, 2, Map.of());
    assertThat(ReplicaAssignment.assign(files, servers, 2, first)).isEqualTo(first);
  }

  @Test
  void aLostServersReplicasGoElsewhereAndTheRestStay() {
    Map<String, Long> files = files(90, 5);
    Map<String, List<String>> before =
        ReplicaAssignment.assign(files, Set.of("s1", "s2", "s3", "s4"), 2, Map.of());
    Map<String, List<String>> after =
        ReplicaAssignment.assign(files, Set.of("s1", "s2", "s3"), 2, before);

    after.values().forEach(servers -> assertThat(servers).hasSize(2).doesNotContain("s4"));
    // Replicas on surviving servers stay, but for the few balancing moves to even the loads out.
    int surviving = 0;
    int stayed = 0;
    for (Map.Entry<String, List<String>> file : before.entrySet()) {
      for (String server : file.getValue()) {
        if (!server.equals("s4")) {
          surviving++;
          stayed += after.get(file.getKey()).contains(server) ? 1 : 0;
        }
      }
    }
    assertThat((double) stayed / surviving).isGreaterThan(0.9);
    assertBalanced(files, after);
  }

  @Test
  void aJoiningServerGetsItsShareByMovingOnlyWhatBalancingNeeds() {
    Map<String, Long> files = files(90, 11);
    Map<String, List<String>> before =
        ReplicaAssignment.assign(files, Set.of("s1", "s2", "s3"), 2, Map.of());
    Map<String, List<String>> after =
        ReplicaAssignment.assign(files, Set.of("s1", "s2", "s3", "s4"), 2, before);

    assertBalanced(files, after);
    long moved = 0;
    long total = 0;
    for (String file : files.keySet()) {
      for (String server : after.get(file)) {
        total += files.get(file);
        if (!before.get(file).contains(server)) {
          moved += files.get(file);
        }
      }
    }
    // The new server's fair share is a quarter of the replicas' bytes; far less than all moved.
    assertThat((double) moved / total).isBetween(0.15, 0.40);
    assertThat(load(files, after).get("s4")).isPositive();
  }

  @Test
  void refusesAReplicationBelowOne() {
    assertThatThrownBy(() -> ReplicaAssignment.assign(Map.of(), Set.of("s1"), 0, Map.of()))
        .hasMessageContaining("replication must be at least 1");
  }

  /** {@code count} files of 1 to 100 MB, from a seeded generator. */
  private static Map<String, Long> files(int count, long seed) {
    Random random = new Random(seed);
    Map<String, Long> files = new TreeMap<>();
    for (int i = 0; i < count; i++) {
      files.put("s3://lake/t/data/file-" + i + ".parquet", (1 + random.nextInt(100)) * 1_000_000L);
    }
    return files;
  }

  private static Map<String, Long> load(Map<String, Long> files, Map<String, List<String>> placed) {
    Map<String, Long> load = new HashMap<>();
    placed.forEach(
        (file, servers) ->
            servers.forEach(server -> load.merge(server, files.get(file), Long::sum)));
    return load;
  }

  /** No server's load is further from the mean than the largest file. */
  private static void assertBalanced(Map<String, Long> files, Map<String, List<String>> placed) {
    Map<String, Long> load = load(files, placed);
    long largest = files.values().stream().mapToLong(Long::longValue).max().orElse(0);
    double mean = load.values().stream().mapToLong(Long::longValue).average().orElse(0);
    assertThat(load.values())
        .allSatisfy(bytes -> assertThat(Math.abs(bytes - mean)).isLessThanOrEqualTo(largest));
  }
}
