package io.shelfmark.cluster.member;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;

/**
 * Servers being drained: an operator marks a server before taking it out (to replace it, resize the
 * cluster, or upgrade it), and the controller leader then places its files on the other servers.
 * The server keeps serving what brokers still route to it until the new replicas serve, so no file
 * is ever left without a serving replica; once nothing is routed to it, it can stop. The mark is
 * persistent: it outlives the server's session, so a drained server that restarts is not given
 * files again until the mark is cleared.
 */
public final class Drains {
  private Drains() {}

  /**
   * A drain mark's value.
   *
   * @param server the drained server's member id
   * @param markedAtMillis when it was marked, in epoch milliseconds
   */
  public record Drain(String server, long markedAtMillis) {
    public Drain {
      requireNonNull(server, "server is null");
    }
  }

  /** Marks {@code server} drained; marking it again keeps the first mark's time. */
  public static void mark(CuratorFramework client, ZNodes nodes, String server) throws IOException {
    new VersionedJson(client)
        .update(
            nodes.drain(server),
            Drain.class,
            previous -> previous.orElseGet(() -> new Drain(server, System.currentTimeMillis())));
  }

  /** Clears {@code server}'s mark; returns whether there was one. */
  public static boolean clear(CuratorFramework client, ZNodes nodes, String server)
      throws IOException {
    return new VersionedJson(client).delete(nodes.drain(server));
  }

  /** The member ids of the servers drained now, sorted. */
  public static Set<String> drained(CuratorFramework client, ZNodes nodes) throws IOException {
    Set<String> servers = new TreeSet<>();
    Map<String, Drain> marks = new VersionedJson(client).children(nodes.drains(), Drain.class);
    marks.values().forEach(drain -> servers.add(drain.server()));
    return servers;
  }

  /**
   * How many files the tables' routings and assignments still give {@code server}: once none, no
   * broker sends it a query and it can stop.
   */
  public static int filesHeld(CuratorFramework client, ZNodes nodes, String server)
      throws IOException {
    TableAssignmentStore records = new TableAssignmentStore(client);
    int files = 0;
    for (TableAssignment routing : records.children(nodes.routings()).values()) {
      files += routing.filesOf(server).size();
    }
    for (TableAssignment assignment : records.children(nodes.assignments()).values()) {
      files += assignment.filesOf(server).size();
    }
    return files;
  }
}
