package io.shelfmark.cluster.leader;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cluster.state.ZNodes;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which controller leads: a Curator {@link LeaderLatch} at {@link ZNodes#controllerLeader()}. Only
 * the leader schedules segment builds and follows snapshots; standbys wait. When the leader's
 * session ends (it closed, or died and its session timed out) the next candidate leads. With one
 * controller (all-in-one) it leads as soon as it starts.
 *
 * <p>Thread safe. Start with {@link #start}; {@link #close} gives leadership up.
 */
public final class ControllerLeadership implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ControllerLeadership.class);

  private final LeaderLatch latch;
  private final String id;

  private ControllerLeadership(LeaderLatch latch, String id) {
    this.latch = latch;
    this.id = id;
  }

  /** Joins the election as {@code id} (the member id). */
  public static ControllerLeadership start(CuratorFramework client, ZNodes nodes, String id)
      throws IOException {
    requireNonNull(client, "client is null");
    requireNonNull(id, "id is null");
    LeaderLatch latch = new LeaderLatch(client, nodes.controllerLeader(), id);
    try {
      latch.start();
    } catch (Exception e) {
      throw new IOException(
          "Cannot join the controller election at "
              + nodes.controllerLeader()
              + ": "
              + e.getMessage(),
          e);
    }
    ControllerLeadership leadership = new ControllerLeadership(latch, id);
    latch.addListener(
        new org.apache.curator.framework.recipes.leader.LeaderLatchListener() {
          @Override
          public void isLeader() {
            log.info("Controller {} leads", id);
          }

          @Override
          public void notLeader() {
            log.info("Controller {} no longer leads", id);
          }
        });
    return leadership;
  }

  /**
   * Calls {@code action} each time this controller becomes the leader, on a thread of Curator's (so
   * {@code action} hands long work to a thread of its own).
   */
  public void onLeadership(Runnable action) {
    requireNonNull(action, "action is null");
    latch.addListener(
        new org.apache.curator.framework.recipes.leader.LeaderLatchListener() {
          @Override
          public void isLeader() {
            action.run();
          }

          @Override
          public void notLeader() {}
        });
  }

  /** Whether this controller leads now. */
  public boolean isLeader() {
    return latch.hasLeadership();
  }

  /** Waits until this controller leads; false when {@code timeout} passed first. */
  public boolean awaitLeadership(Duration timeout) throws InterruptedException {
    return latch.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public String id() {
    return id;
  }

  @Override
  public void close() throws IOException {
    latch.close();
  }

  @Override
  public String toString() {
    return "ControllerLeadership[" + id + (isLeader() ? ", leader]" : ", standby]");
  }
}
