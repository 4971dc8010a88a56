package io.shelfmark.cluster.member;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;

/**
 * Live membership: each process keeps one ephemeral node under {@link ZNodes#members()} for as long
 * as its ZooKeeper session lives. It goes away when the process closes its client (at once) or dies
 * (after the session timeout). Curator's {@link PersistentNode} creates the node again after a
 * session expiry, so a process that was cut off and came back is listed again.
 */
public final class Members {
  private static final Duration REGISTER_TIMEOUT = Duration.ofSeconds(30);

  private Members() {}

  /**
   * Registers {@code member} under its id; close the result (or the client) to leave.
   *
   * @throws IOException when the node is not created within 30 s
   */
  public static AutoCloseable register(CuratorFramework client, ZNodes nodes, Member member)
      throws IOException {
    requireNonNull(client, "client is null");
    requireNonNull(member, "member is null");
    String path = nodes.member(member.id());
    PersistentNode node =
        new PersistentNode(
            client,
            CreateMode.EPHEMERAL,
            false,
            path,
            VersionedJson.toJson(member).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    node.start();
    try {
      if (!node.waitForInitialCreate(REGISTER_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        node.close();
        throw new IOException(
            "Cannot register member %s at %s: not created within %s (is another process using the same id?)"
                .formatted(member.id(), path, REGISTER_TIMEOUT));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      node.close();
      throw new IOException("Interrupted while registering member " + member.id(), e);
    }
    return node;
  }

  /** The members alive now, sorted by id. */
  public static List<Member> live(CuratorFramework client, ZNodes nodes) throws IOException {
    return new ArrayList<>(
        new VersionedJson(client).children(nodes.members(), Member.class).values());
  }
}
