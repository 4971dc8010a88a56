package io.shelfmark.broker.dispatch;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;

/**
 * Which servers hold each data file of a table's snapshot, in order of preference: what the cluster
 * state publishes with a routing version. The dispatcher sends each file to one of them and, when
 * that one fails, to the next. Thread safe; a lookup does no I/O.
 */
@FunctionalInterface
public interface ReplicaMap {
  /**
   * The servers holding {@code dataFile} of snapshot {@code snapshotId} of {@code table}; empty
   * when none does (the query then fails naming the file, or answers without it when partial
   * results are allowed).
   */
  List<ServerEndpoint> replicas(String table, long snapshotId, String dataFile);

  /** The same servers for every file of every table and snapshot (tests, one server). */
  static ReplicaMap everywhere(List<ServerEndpoint> servers) {
    List<ServerEndpoint> copy = List.copyOf(requireNonNull(servers, "servers is null"));
    return (table, snapshotId, dataFile) -> copy;
  }

  /** A fixed map from data file path to its servers, whatever the table and snapshot (tests). */
  static ReplicaMap fixed(Map<String, List<ServerEndpoint>> byFile) {
    Map<String, List<ServerEndpoint>> copy = Map.copyOf(requireNonNull(byFile, "byFile is null"));
    return (table, snapshotId, dataFile) -> copy.getOrDefault(dataFile, List.of());
  }
}
