package io.shelfmark.config.render;

import java.util.List;
import java.util.Locale;

/**
 * What a deployed node runs: the coordinator runs ZooKeeper, the controller and the broker; a
 * server node runs one server. Each process is a {@code shelfmark@<process>} systemd unit.
 */
public enum NodeKind {
  COORDINATOR(List.of("zookeeper", "controller", "broker")),
  SERVER(List.of("server"));

  private final List<String> processes;

  NodeKind(List<String> processes) {
    this.processes = processes;
  }

  /** The processes of such a node, in start order. */
  public List<String> processes() {
    return processes;
  }

  /** The kind named {@code coordinator} or {@code server}. */
  public static NodeKind of(String name) {
    for (NodeKind kind : values()) {
      if (kind.configName().equals(name)) {
        return kind;
      }
    }
    throw new IllegalArgumentException(
        "Cannot use node kind: \"" + name + "\" (expected coordinator or server)");
  }

  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
