package io.shelfmark.cli.cluster;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.member.Drains;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.apache.curator.framework.CuratorFramework;

/**
 * Takes a server out of service without failing a query: marks it drained in ZooKeeper, so the
 * controller leader places its files on the other servers, then waits until no routing or
 * assignment gives it a file (its replacements serve them), after which it can stop.
 */
public final class ServerDrain {
  private static final Duration POLL = Duration.ofMillis(250);

  private final CuratorFramework client;
  private final ZNodes nodes;

  public ServerDrain(CuratorFramework client, ZNodes nodes) {
    this.client = requireNonNull(client, "client is null");
    this.nodes = requireNonNull(nodes, "nodes is null");
  }

  /**
   * Marks {@code server} drained (or clears the mark with {@code undo}) and, unless {@code wait} is
   * zero, waits until nothing is routed or assigned to it; says what it did on {@code out}.
   *
   * @param label how messages name the server
   */
  public void apply(String label, String server, boolean undo, Duration wait, PrintStream out)
      throws IOException {
    if (undo) {
      out.println(
          clear(server)
              ? "  " + label + " is no longer drained: it gets files again"
              : "  " + label + " was not drained");
      return;
    }
    mark(server);
    out.println("  draining " + label);
    if (!wait.isZero()) {
      awaitReleased(server, wait, out);
      out.println("  " + label + " is drained: nothing is routed to it, it can stop");
    }
    out.flush();
  }

  /**
   * Marks {@code server} drained.
   *
   * @throws IOException when it is neither a live server nor given files (a typo, most likely)
   */
  public void mark(String server) throws IOException {
    List<String> live =
        Members.live(client, nodes).stream()
            .filter(member -> member.roles().contains("server"))
            .map(Member::id)
            .toList();
    if (!live.contains(server) && Drains.filesHeld(client, nodes, server) == 0) {
      throw new IOException(
          "Cannot drain "
              + server
              + ": it is no live server and holds no file (live servers: "
              + (live.isEmpty() ? "none" : String.join(", ", live))
              + ")");
    }
    Drains.mark(client, nodes, server);
  }

  /** Clears {@code server}'s drain mark, so the controller gives it files again. */
  public boolean clear(String server) throws IOException {
    return Drains.clear(client, nodes, server);
  }

  /**
   * Waits until no routing or assignment gives {@code server} a file, printing how many remain when
   * that changes.
   *
   * @throws IOException when some remain after {@code timeout}
   */
  public void awaitReleased(String server, Duration timeout, PrintStream out) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int last = -1;
    while (true) {
      int held = Drains.filesHeld(client, nodes, server);
      if (held != last) {
        out.printf(
            Locale.ROOT, "  %s: %d file replicas still routed or assigned to it%n", server, held);
        out.flush();
        last = held;
      }
      if (held == 0) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(
            "Cannot finish draining "
                + server
                + ": "
                + held
                + " file replicas are still routed or assigned to it after "
                + timeout.toSeconds()
                + " s (are the other servers up, and is a controller leading? cluster status"
                + " shows both; the mark stays, so the drain goes on)");
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("Interrupted while draining " + server);
      }
    }
  }
}
