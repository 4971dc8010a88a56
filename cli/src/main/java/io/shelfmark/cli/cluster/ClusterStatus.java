package io.shelfmark.cli.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.member.Drains;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.routing.ServedFiles;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;

/**
 * What {@code cluster status} shows of a local cluster: one line per process (role, pid, ports,
 * whether it runs, its health) and, from ZooKeeper, which controller leads, which servers are live
 * members and how many files of each table each serves, and each table's routed snapshot.
 */
public final class ClusterStatus {
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(3);

  private ClusterStatus() {}

  /** One process's line. */
  public record ProcessLine(ClusterProcess process, boolean alive, String health, String detail) {
    public ProcessLine {
      requireNonNull(process, "process is null");
      requireNonNull(health, "health is null");
      requireNonNull(detail, "detail is null");
    }
  }

  /** Every process's line, in the order they were started. */
  public static List<ProcessLine> lines(List<ClusterProcess> processes) {
    Map<String, String> details = new HashMap<>();
    Map<String, Boolean> members = new HashMap<>();
    Optional<ClusterProcess> zookeeper =
        processes.stream().filter(p -> p.role().equals("zookeeper") && p.alive()).findFirst();
    if (zookeeper.isPresent()) {
      try {
        readClusterState(zookeeper.get(), processes, details, members);
      } catch (IOException | RuntimeException e) {
        details.put("zookeeper", "cannot read the cluster state: " + e.getMessage());
      }
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(PROBE_TIMEOUT).build();
    List<ProcessLine> lines = new ArrayList<>();
    for (ClusterProcess process : processes) {
      boolean alive = process.alive();
      String health;
      if (!alive) {
        health = "DOWN";
      } else if (process.httpPort().isPresent()) {
        health = probe(http, process.httpPort().get());
      } else if (process.role().equals("server")) {
        health = members.getOrDefault(process.name(), false) ? "MEMBER" : "NOT A MEMBER";
      } else {
        health = "RUNNING";
      }
      lines.add(new ProcessLine(process, alive, health, details.getOrDefault(process.name(), "")));
    }
    return lines;
  }

  /** Prints {@code lines} as a table. */
  public static String format(List<ProcessLine> lines) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%-12s %-10s %-8s %-13s %-40s %s%n",
            "NAME",
            "ROLE",
            "PID",
            "HEALTH",
            "PORTS",
            "DETAIL"));
    for (ProcessLine line : lines) {
      out.append(
          String.format(
              Locale.ROOT,
              "%-12s %-10s %-8d %-13s %-40s %s%n",
              line.process().name(),
              line.process().role(),
              line.process().pid(),
              line.health(),
              line.process().ports(),
              line.detail()));
    }
    return out.toString();
  }

  private static String probe(HttpClient http, int port) {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
                  .timeout(PROBE_TIMEOUT)
                  .build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return response.statusCode() == 200 ? "OK" : "HTTP " + response.statusCode();
    } catch (IOException e) {
      return "NO ANSWER";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "NO ANSWER";
    }
  }

  /**
   * Fills in, by process name, the leader and each server's served files from ZooKeeper. Process
   * names map to members by their ports: a server's member id ends with its rpc port.
   */
  private static void readClusterState(
      ClusterProcess zookeeper,
      List<ClusterProcess> processes,
      Map<String, String> details,
      Map<String, Boolean> members)
      throws IOException {
    Map<String, String> byPort = new HashMap<>();
    for (ClusterProcess process : processes) {
      process.ports().forEach((name, port) -> byPort.put(name + ":" + port, process.name()));
    }
    try (CuratorFramework client = LocalCluster.zookeeperClient(zookeeper)) {
      ZNodes nodes = new ZNodes(LocalCluster.CLUSTER_NAME);
      VersionedJson state = new VersionedJson(client);
      List<Member> live = Members.live(client, nodes);
      Optional<String> leader = leader(client, nodes);
      Set<String> drained = Drains.drained(client, nodes);
      Map<String, TableAssignment> routings =
          new TableAssignmentStore(client).children(nodes.routings());
      for (Member member : live) {
        String name = nameOf(member, byPort);
        members.put(name, true);
        List<String> served = new ArrayList<>();
        for (TableAssignment routing : routings.values()) {
          Optional<ServedFiles> report =
              state
                  .read(nodes.served(routing.table(), member.id()), ServedFiles.class)
                  .map(v -> v.value());
          report.ifPresent(
              files ->
                  served.add(
                      routing.table()
                          + ": "
                          + files.files().size()
                          + " files at snapshot "
                          + files.snapshotId()));
        }
        if (drained.contains(member.id())) {
          served.addFirst("draining");
        }
        String detail = String.join("; ", served);
        if (member.roles().contains("controller")) {
          detail = leader.filter(member.id()::equals).isPresent() ? "leader" : "standby";
        }
        details.put(name, detail);
      }
      List<String> routed = new ArrayList<>();
      routings.values().stream()
          .sorted(Comparator.comparing(TableAssignment::table))
          .forEach(
              routing ->
                  routed.add(
                      routing.table()
                          + " routed at snapshot "
                          + routing.snapshotId()
                          + " over "
                          + routing.servers().size()
                          + " servers"));
      details.put("zookeeper", String.join("; ", routed));
    }
  }

  /** The process name of a member: the process that listens on one of its ports. */
  private static String nameOf(Member member, Map<String, String> byPort) {
    for (Map.Entry<String, Integer> port : member.ports().entrySet()) {
      String name = byPort.get(port.getKey() + ":" + port.getValue());
      if (name != null) {
        return name;
      }
    }
    return member.id();
  }

  /** The id of the controller that holds the leader latch: the lowest sequence number's. */
  private static Optional<String> leader(CuratorFramework client, ZNodes nodes) {
    try {
      List<String> children = client.getChildren().forPath(nodes.controllerLeader());
      return children.stream()
          .min(Comparator.comparing(child -> child.substring(child.lastIndexOf('-') + 1)))
          .map(
              child -> {
                try {
                  return new String(
                      client.getData().forPath(nodes.controllerLeader() + "/" + child),
                      StandardCharsets.UTF_8);
                } catch (Exception e) {
                  return "";
                }
              });
    } catch (Exception e) {
      return Optional.empty();
    }
  }
}
