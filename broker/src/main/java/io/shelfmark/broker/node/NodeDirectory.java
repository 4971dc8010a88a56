package io.shelfmark.broker.node;

import java.util.List;

/**
 * The processes this broker can tell about, for {@code GET /nodes}: itself in one JVM, the live
 * members of the cluster otherwise. Implementations answer from memory or a cheap lookup: the
 * console polls it.
 *
 * <p>Thread safe.
 */
@FunctionalInterface
public interface NodeDirectory {
  /** The nodes, this process first. */
  List<NodeStatus> nodes();

  /** A directory that knows no node (tests of the HTTP endpoint alone). */
  static NodeDirectory none() {
    return List::of;
  }
}
