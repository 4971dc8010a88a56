package io.shelfmark.config.render;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.ConfigFormat;
import io.shelfmark.config.ConfigWriter;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.cluster.Role;
import java.nio.file.Path;

/**
 * The cluster config of one role process of a node: the node's settings, that one role, its own
 * data directory (two processes never share a cache directory) and its cache bounds. {@code cluster
 * up} and {@code config render} both write their configs through here.
 */
public final class RoleConfigs {
  private RoleConfigs() {}

  /**
   * The config of {@code role} on the node {@code node}.
   *
   * @param dataDir the role's own data directory (pinned segments, cache, state)
   * @param cache the role's cache bounds, such as {@link NodeSizing#cache}
   * @throws IllegalArgumentException naming the setting when the combination is refused (e.g. a
   *     non-loopback host without users or the override)
   */
  public static ClusterConfig of(NodeSettings node, Role role, Path dataDir, CacheConfig cache) {
    requireNonNull(node, "node is null");
    requireNonNull(role, "role is null");
    return ClusterConfig.builder()
        .clusterName(node.clusterName())
        .roles(role)
        .host(node.host())
        .ports(node.ports())
        .storage(node.storage())
        .catalog(node.catalog())
        .segmentStore(node.segmentStore())
        .dataDir(requireNonNull(dataDir, "dataDir is null"))
        .cache(requireNonNull(cache, "cache is null"))
        .zookeeper(node.zookeeper())
        .allowUnauthenticatedRemoteAccess(node.allowUnauthenticatedRemoteAccess())
        .build();
  }

  /** {@link #of} as the YAML file a role process reads with {@code --config}. */
  public static String render(NodeSettings node, Role role, Path dataDir, CacheConfig cache) {
    return ConfigWriter.write(of(node, role, dataDir, cache), ConfigFormat.YAML);
  }
}
