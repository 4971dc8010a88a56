package io.shelfmark.controller.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.ClusterZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.controller.table.TableRegistry;
import io.shelfmark.indexbuilder.build.BuildFailure;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestZooKeeperTableStateStore {
  private static final TableConfig CONFIG =
      TableConfig.builder(new TableIdentity("lake", "obs", "metrics"))
          .column("metric", ColumnConfig.of(IndexKind.INVERTED))
          .build();

  @TempDir Path directory;
  private ClusterZooKeeper zookeeper;
  private ZooKeeperTableStateStore store;

  @BeforeEach
  void setUp() throws Exception {
    zookeeper = ClusterZooKeeper.start(ZooKeeperConfig.embedded(), directory);
    store = new ZooKeeperTableStateStore(zookeeper.client(), new ZNodes("test"));
  }

  @AfterEach
  void tearDown() {
    zookeeper.close();
  }

  @Test
  void tableConfigsAndSegmentRecordsRoundTrip() throws Exception {
    store.saveTable(CONFIG);
    SegmentRecord ready =
        SegmentRecord.ready(
            "s3://lake/a.parquet", 1000, "f1", Location.parse("s3://lake/seg/a.shfm"), 77);
    SegmentRecord failed =
        SegmentRecord.failed(
            "s3://lake/b.parquet",
            500,
            "f1",
            new BuildFailure("s3://lake/b.parquet", BuildFailure.Kind.CORRUPT, "bad footer"));
    store.saveSegment("obs.metrics", ready);
    store.saveSegment("obs.metrics", failed);

    List<TableStateStore.StoredTable> tables = store.tables();
    assertThat(tables).hasSize(1);
    assertThat(tables.getFirst().config()).isEqualTo(CONFIG);
    assertThat(tables.getFirst().segments())
        .containsOnly(Map.entry(ready.fileKey(), ready), Map.entry(failed.fileKey(), failed));

    assertThat(ready.stateFor("s3://lake/a.parquet", 1000, "f1"))
        .contains(new SegmentState.Ready(Location.parse("s3://lake/seg/a.shfm"), 77));
    assertThat(ready.stateFor("s3://lake/a.parquet", 1000, "another spec")).isEmpty();
    assertThat(ready.stateFor("s3://lake/a.parquet", 1001, "f1")).isEmpty();
    assertThat(failed.stateFor("s3://lake/b.parquet", 500, "f1").orElseThrow())
        .isInstanceOf(SegmentState.Failed.class);
    SegmentRecord storageFailure =
        SegmentRecord.failed(
            "s3://lake/c.parquet",
            9,
            "f1",
            new BuildFailure("s3://lake/c.parquet", BuildFailure.Kind.STORAGE, "503"));
    assertThat(storageFailure.stateFor("s3://lake/c.parquet", 9, "f1"))
        .as("a storage failure is built again")
        .isEmpty();

    store.retainSegments("obs.metrics", Set.of(ready.fileKey()));
    assertThat(store.segments("obs.metrics")).containsOnlyKeys(ready.fileKey());
    assertThat(store.dropTable("obs.metrics")).isTrue();
    assertThat(store.tables()).isEmpty();
    assertThat(store.dropTable("obs.metrics")).isFalse();
  }

  @Test
  void aStandbyControllerServesButBuildsNothing() throws Exception {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize("lake", Map.of());
    catalog.createNamespace(Namespace.of("obs"));
    Schema schema = new Schema(Types.NestedField.required(1, "metric", Types.StringType.get()));
    catalog
        .createTable(TableIdentifier.of("obs", "metrics"), schema, PartitionSpec.unpartitioned())
        .newAppend()
        .appendFile(
            DataFiles.builder(PartitionSpec.unpartitioned())
                .withPath(directory.resolve("missing.parquet").toString())
                .withFormat("parquet")
                .withFileSizeInBytes(10)
                .withRecordCount(1)
                .build())
        .commit();
    ExecutorService builds = Executors.newFixedThreadPool(1);
    try {
      SegmentScheduler scheduler =
          new SegmentScheduler(
              new SegmentFileBuilder(
                  ObjectStores.local(),
                  builds,
                  IndexService.installed(),
                  BuildOptions.builder().workDirectory(directory).build()),
              SegmentStore.inDirectory(directory.resolve("segments")),
              builds);
      TableRegistry standby =
          new TableRegistry(
              Map.of("lake", catalog), scheduler, store, () -> false, Clock.systemUTC());
      ServedTable served = standby.onboard(CONFIG);
      assertThat(served.segmentsPending()).isEqualTo(1);
      // A leader's build of this missing file would fail within milliseconds.
      await()
          .during(Duration.ofMillis(500))
          .atMost(Duration.ofSeconds(2))
          .until(() -> standby.table("obs.metrics").orElseThrow().segmentsPending() == 1);
      assertThat(store.tables())
          .extracting(TableStateStore.StoredTable::config)
          .containsExactly(CONFIG);

      TableRegistry leader =
          new TableRegistry(
              Map.of("lake", catalog), scheduler, store, () -> true, Clock.systemUTC());
      assertThat(leader.restore()).hasSize(1);
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> leader.table("obs.metrics").orElseThrow().segmentsFailed() == 1);
      assertThat(store.segments("obs.metrics").values())
          .extracting(SegmentRecord::state)
          .as("the failure is recorded")
          .containsExactly(SegmentRecord.FAILED);
    } finally {
      builds.shutdownNow();
    }
  }
}
