package io.shelfmark.cluster.routing;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which servers serve each data file of one snapshot of a table. The controller leader writes two
 * of these per table: the <em>assignment</em> (what each server should serve: {@code
 * assignments/<table>}) and, once every file of it is served by at least one server that says so,
 * the <em>routing</em> (what brokers send queries to: {@code routing/<table>}), each as one
 * ZooKeeper node, or a head node and immutable parts when large ({@link TableAssignmentStore}) — so
 * a broker always sees one whole snapshot, never half of a change.
 *
 * @param table the table's SQL name ({@code obs.metrics})
 * @param catalog the catalog the table is loaded from, as the table config names it
 * @param namespace the table's Iceberg namespace
 * @param name the table's Iceberg name
 * @param snapshotId the snapshot whose live data files {@code files} lists; -1 for none
 * @param version increases with every assignment of the table, across snapshots; a routing carries
 *     the version of the assignment it was made from
 * @param files every live data file of the snapshot, by path, in snapshot order
 */
public record TableAssignment(
    String table,
    String catalog,
    String namespace,
    String name,
    long snapshotId,
    long version,
    Map<String, FileReplicas> files) {
  public TableAssignment {
    requireNonNull(table, "table is null");
    requireNonNull(catalog, "catalog is null");
    requireNonNull(namespace, "namespace is null");
    requireNonNull(name, "name is null");
    checkArgument(version >= 0, "version is negative: %s", version);
    files = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(files, "files")));
  }

  /** The data files {@code server} serves, in snapshot order. */
  public List<String> filesOf(String server) {
    return files.entrySet().stream()
        .filter(file -> file.getValue().servers().contains(server))
        .map(Map.Entry::getKey)
        .toList();
  }

  /** Every server named by some file. */
  public Set<String> servers() {
    Set<String> servers = new TreeSet<>();
    files.values().forEach(file -> servers.addAll(file.servers()));
    return servers;
  }

  /**
   * The same files, each with the servers to route it to according to {@code served} (member id to
   * the files it reports served at this snapshot): the assigned servers that serve it, in their
   * order; only while none does, the other servers still serving it (the old replicas of a file
   * being moved), by member id. So an old replica stays routed until a new one is ready, and no
   * longer: routing it after would keep it served for ever (a server keeps serving what is routed
   * to it).
   */
  public TableAssignment servedBy(Map<String, Set<String>> served) {
    Map<String, FileReplicas> narrowed = new LinkedHashMap<>();
    files.forEach(
        (path, file) -> {
          List<String> serving = new java.util.ArrayList<>();
          for (String server : file.servers()) {
            if (served.getOrDefault(server, Set.of()).contains(path)) {
              serving.add(server);
            }
          }
          if (serving.isEmpty()) {
            for (String server : new TreeSet<>(served.keySet())) {
              if (served.get(server).contains(path)) {
                serving.add(server);
              }
            }
          }
          narrowed.put(path, file.withServers(serving));
        });
    return new TableAssignment(table, catalog, namespace, name, snapshotId, version, narrowed);
  }

  /** This assignment with another version. */
  public TableAssignment withVersion(long next) {
    return new TableAssignment(table, catalog, namespace, name, snapshotId, next, files);
  }

  /** Whether {@code other} names the same snapshot, files and servers, whatever its version. */
  public boolean sameAs(TableAssignment other) {
    return other != null
        && table.equals(other.table)
        && snapshotId == other.snapshotId
        && files.equals(other.files)
        && catalog.equals(other.catalog)
        && namespace.equals(other.namespace)
        && name.equals(other.name);
  }

  /** Whether every file has at least one server. */
  public boolean covered() {
    return files.values().stream().noneMatch(file -> file.servers().isEmpty());
  }
}
