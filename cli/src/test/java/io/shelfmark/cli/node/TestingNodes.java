package io.shelfmark.cli.node;

import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.cluster.CacheConfig;
import io.shelfmark.config.cluster.ClusterConfig;
import io.shelfmark.config.unit.DataSize;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/** Nodes for tests: every role in one JVM over a {@link LocalLake}, on a free port. */
final class TestingNodes {
  private TestingNodes() {}

  /**
   * A cluster config over {@code lake} with its data in {@code nodeDir}, segments in the lake's
   * bucket and a small memory cache without a disk tier; tests add what they vary.
   */
  static ClusterConfig.Builder config(LocalLake lake, Path nodeDir) {
    return ClusterConfig.builder()
        .storage(lake.storageConfig())
        .catalog(lake.catalogConfig())
        .segmentStore("s3://" + LocalLake.BUCKET + "/_shelfmark/segments/")
        .dataDir(nodeDir)
        .cache(
            CacheConfig.builder()
                .memoryMaxSize(DataSize.of(16, DataSize.Unit.MEBIBYTE))
                .diskMaxSize(DataSize.of(0, DataSize.Unit.BYTE))
                .build(nodeDir));
  }

  /** Starts a node with {@code config} over {@code lake}'s catalog and store. */
  static AllInOne start(LocalLake lake, ClusterConfig config) throws IOException {
    return AllInOne.start(config, Map.of(LocalLake.CATALOG_NAME, lake.catalog()), lake.store(), 0);
  }
}
