package io.shelfmark.controller.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.cluster.member.Drains;
import io.shelfmark.cluster.member.Member;
import io.shelfmark.cluster.member.Members;
import io.shelfmark.cluster.routing.AssignmentHead;
import io.shelfmark.cluster.routing.ServedFiles;
import io.shelfmark.cluster.routing.TableAssignment;
import io.shelfmark.cluster.routing.TableAssignmentStore;
import io.shelfmark.cluster.state.VersionedJson;
import io.shelfmark.cluster.state.ZNodes;
import io.shelfmark.cluster.zookeeper.CuratorClients;
import io.shelfmark.cluster.zookeeper.EmbeddedZooKeeper;
import io.shelfmark.config.cluster.ZooKeeperConfig;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.table.SegmentState;
import io.shelfmark.controller.table.ServedTable;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.storage.spi.Location;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller leader's publication of a table with more files than one ZooKeeper node holds
 * (about 3,000): before records were split, its assignment could not be written at all (ZooKeeper
 * refuses a request over jute.maxbuffer), so nothing was ever served.
 */
class TestAssignmentPublisherLargeTable {
  private static final int FILES = 9_000;
  private static final String TABLE = "obs.metrics";
  private static final List<String> SERVERS =
      List.of("server@10.0.1.11:8098", "server@10.0.1.12:8098", "server@10.0.1.13:8098");
  private static final Schema SCHEMA =
      new Schema(Types.NestedField.required(1, "logical_timestamp", Types.LongType.get()));

  @TempDir Path directory;
  private EmbeddedZooKeeper server;
  private CuratorFramework client;
  private final ZNodes nodes = new ZNodes("shelfmark");
  private final List<AutoCloseable> members = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    server = EmbeddedZooKeeper.start(directory, 0);
    client = CuratorClients.open(server.connectString(), ZooKeeperConfig.embedded());
    for (String id : SERVERS) {
      members.add(
          Members.register(
              client, nodes, new Member(id, List.of("server"), "10.0.1.11", Map.of(), 0)));
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable member : members) {
      member.close();
    }
    client.close();
    server.close();
  }

  @Test
  void aTableOfNineThousandFilesIsAssignedAndRoutedInParts() throws Exception {
    ServedTable table = table(FILES);
    TableAssignmentStore records = new TableAssignmentStore(client);
    try (AssignmentPublisher publisher = new AssignmentPublisher(client, nodes, () -> true)) {
      publisher.accept(table);
      publisher.reconcileNow();

      TableAssignment assignment = records.read(nodes.assignment(TABLE)).orElseThrow();
      assertThat(assignment.files()).hasSize(FILES);
      assertThat(assignment.snapshotId()).isEqualTo(table.snapshotId());
      assertThat(List.copyOf(assignment.files().keySet()))
          .isEqualTo(table.snapshot().dataFiles().stream().map(DataFileInfo::path).toList());
      assertThat(assignment.files().values()).allSatisfy(f -> assertThat(f.servers()).hasSize(2));
      assertThat(VersionedJson.toJson(assignment).getBytes(StandardCharsets.UTF_8).length)
          .as("more than one ZooKeeper node holds (jute.maxbuffer, 1 MB)")
          .isGreaterThan(1 << 20);
      assertThat(head(records, nodes.assignments()).parts())
          .as("the assignment is split")
          .isNotNull();
      assertThat(records.read(nodes.routing(TABLE))).as("nothing served yet").isEmpty();

      // Each server reports what it serves, as AssignmentFollower does once the files are open:
      // some 700 KB of paths each, written gzip'd.
      for (String id : SERVERS) {
        List<String> files = assignment.filesOf(id);
        assertThat(files).hasSizeBetween(FILES * 2 / 3 - 200, FILES * 2 / 3 + 200);
        client
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .forPath(
                nodes.served(TABLE, id),
                new ServedFiles(assignment.version(), assignment.snapshotId(), files)
                    .encode(TABLE));
      }
      publisher.reconcileNow();

      TableAssignment routing = records.read(nodes.routing(TABLE)).orElseThrow();
      assertThat(routing.covered()).isTrue();
      assertThat(routing.files()).hasSize(FILES);
      assertThat(routing.version()).isEqualTo(1);
      assertThat(routing.files()).isEqualTo(assignment.files());
      assertThat(head(records, nodes.routings()).parts()).as("the routing is split").isNotNull();
      assertThat(Drains.filesHeld(client, nodes, SERVERS.getFirst()))
          .as("the files of one server in the routing and the assignment")
          .isEqualTo(2 * assignment.filesOf(SERVERS.getFirst()).size());

      // Nothing changed: no new version is written.
      publisher.reconcileNow();
      assertThat(records.read(nodes.routing(TABLE)).orElseThrow().version()).isEqualTo(1);

      publisher.drop(TABLE);
      assertThat(records.read(nodes.assignment(TABLE))).isEmpty();
      assertThat(records.read(nodes.routing(TABLE))).isEmpty();
    }
  }

  private static AssignmentHead head(TableAssignmentStore records, String parent) throws Exception {
    return records.heads(parent).values().iterator().next();
  }

  /** A served table of {@code count} data files, each with a ready segment. */
  private static ServedTable table(int count) {
    TableConfig config =
        TableConfig.builder(new TableIdentity("lake", "obs", "metrics")).replication(2).build();
    List<DataFileInfo> files = new ArrayList<>();
    Map<String, SegmentState> segments = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      String path =
          "s3://lake/warehouse/obs/metrics/data/ts_day=2026-11-%02d/%05d-0-5b0e9c4d-7a1f-4e2b-9c3d-%012d-00001.parquet"
              .formatted(1 + i % 28, i, i);
      files.add(
          new DataFileInfo(
              path,
              FileFormat.PARQUET,
              FileContent.DATA,
              134_217_728L + i,
              1_000_000,
              new FilePartition(0, "", List.of()),
              1,
              1,
              List.of()));
      segments.put(
          path,
          new SegmentState.Ready(
              Location.parse(
                  "s3://lake/_shelfmark/segments/obs.metrics/3f2a9c0d1e7b/%032x-%d.shfm"
                      .formatted(i, 134_217_728L + i)),
              9_120_333 + i));
    }
    TableSnapshot snapshot =
        new TableSnapshot(TABLE, OptionalLong.of(6113807771568454558L), files, List.of());
    return new ServedTable(
        config,
        SCHEMA,
        Map.of(0, PartitionSpec.unpartitioned()),
        2,
        snapshot,
        SegmentSpec.from(config, SCHEMA),
        segments,
        Instant.parse("2026-11-27T12:00:00Z"));
  }
}
