package io.shelfmark.cli.cluster;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One process of a local cluster, as {@code cluster up} started it and records it in the run
 * directory's {@code cluster.json}.
 *
 * @param name unique in the cluster, such as {@code server-2}
 * @param role what it runs: {@code lake}, {@code zookeeper}, {@code controller}, {@code broker} or
 *     {@code server}
 * @param pid its process id
 * @param ports what it listens on, by name (such as {@code broker-http}, {@code server-rpc})
 * @param config its cluster config file; empty when it has none
 * @param log its standard output and error
 */
public record ClusterProcess(
    String name, String role, long pid, Map<String, Integer> ports, String config, String log) {
  public ClusterProcess {
    requireNonNull(name, "name is null");
    requireNonNull(role, "role is null");
    ports = new TreeMap<>(requireNonNull(ports, "ports is null"));
    requireNonNull(config, "config is null");
    requireNonNull(log, "log is null");
  }

  ClusterProcess(
      String name,
      String role,
      long pid,
      Map<String, Integer> ports,
      Optional<Path> config,
      Path log) {
    this(name, role, pid, ports, config.map(Path::toString).orElse(""), log.toString());
  }

  /** Its cluster config file, when it has one. */
  public Optional<Path> configFile() {
    return config.isEmpty() ? Optional.empty() : Optional.of(Path.of(config));
  }

  /** Its standard output and error. */
  public Path logFile() {
    return Path.of(log);
  }

  /** Whether the process still runs (and is the one started: a reused pid has another start). */
  public boolean alive() {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  /** Its HTTP port, when it has one: the broker's queries or the controller's admin API. */
  public Optional<Integer> httpPort() {
    return Optional.ofNullable(ports.get(role + "-http"));
  }
}
