package io.shelfmark.cluster.state;

import java.io.IOException;

/** The error a failed ZooKeeper call becomes: it names the node and what to check. */
public final class ZooKeeperFailure {
  private ZooKeeperFailure() {}

  /**
   * "Cannot {@code verb} ZooKeeper node {@code path}: …", keeping the thread's interrupt when the
   * call was interrupted.
   */
  public static IOException of(String verb, String path, Exception e) {
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
    }
    return new IOException(
        "Cannot %s ZooKeeper node %s: %s (is ZooKeeper reachable? see zookeeper.connect)"
            .formatted(verb, path, e.getMessage()),
        e);
  }
}
