package io.shelfmark.server.node;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a node closes what it started: in the reverse order of starting (what was started last
 * depends on what came before), each one whatever the others did, a failure logged rather than
 * thrown — a node that is stopping has nobody left to throw to.
 */
public final class NodeResources {
  private static final Logger log = LoggerFactory.getLogger(NodeResources.class);

  private NodeResources() {}

  /** Closes {@code resources}, the last first. */
  public static void closeAll(List<AutoCloseable> resources) {
    for (int i = resources.size() - 1; i >= 0; i--) {
      try {
        resources.get(i).close();
      } catch (Exception e) {
        log.warn("Cannot close {} cleanly: {}", resources.get(i), e.getMessage());
      }
    }
  }
}
