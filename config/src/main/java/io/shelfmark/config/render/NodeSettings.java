package io.shelfmark.config.render;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.cluster.CatalogConfig;
import io.shelfmark.config.cluster.PortsConfig;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.config.cluster.ZooKeeperConfig;

/**
 * What every role process of one node shares: the cluster it belongs to, the address and ports it
 * is reached at, the lake (storage, catalog, segment store) and the ZooKeeper ensemble.
 *
 * @param clusterName the cluster's name ({@code cluster-name})
 * @param host the address other members reach this node at ({@code host})
 * @param ports the node's listening ports; each role binds its own
 * @param storage where the Parquet data is read from
 * @param catalog the Iceberg catalog
 * @param segmentStore where segments are kept ({@code s3://bucket/prefix} or an absolute path)
 * @param zookeeper the ensemble every role connects to
 * @param allowUnauthenticatedRemoteAccess whether a non-loopback {@code host} is accepted without
 *     users (something in front of the node, such as a security group, keeps others out)
 */
public record NodeSettings(
    String clusterName,
    String host,
    PortsConfig ports,
    StorageConfig storage,
    CatalogConfig catalog,
    String segmentStore,
    ZooKeeperConfig zookeeper,
    boolean allowUnauthenticatedRemoteAccess) {
  public NodeSettings {
    requireNonNull(clusterName, "clusterName is null");
    requireNonNull(host, "host is null");
    requireNonNull(ports, "ports is null");
    requireNonNull(storage, "storage is null");
    requireNonNull(catalog, "catalog is null");
    requireNonNull(segmentStore, "segmentStore is null");
    requireNonNull(zookeeper, "zookeeper is null");
  }
}
