package io.shelfmark.controller.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import io.shelfmark.controller.indexing.SegmentScheduler;
import io.shelfmark.indexbuilder.build.BuildOptions;
import io.shelfmark.indexbuilder.build.SegmentFileBuilder;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.storage.ObjectStores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestTableRegistry {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "org_id", Types.LongType.get()),
          Types.NestedField.required(2, "metric", Types.StringType.get()),
          Types.NestedField.required(3, "logical_timestamp", Types.LongType.get()),
          Types.NestedField.optional(
              4,
              "dimensions",
              Types.MapType.ofOptional(5, 6, Types.StringType.get(), Types.StringType.get())),
          Types.NestedField.optional(7, "payload", Types.BinaryType.get()));
  private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");

  @TempDir Path directory;
  private InMemoryCatalog catalog;
  private TableRegistry registry;
  private ExecutorService builds;
  private final List<ServedTable> published = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() {
    catalog = new InMemoryCatalog();
    catalog.initialize("lake", Map.of());
    catalog.createNamespace(Namespace.of("obs"));
    catalog.createTable(
        TableIdentifier.of("obs", "metrics"), SCHEMA, PartitionSpec.unpartitioned());
    builds = Executors.newFixedThreadPool(2);
    SegmentFileBuilder builder =
        new SegmentFileBuilder(
            ObjectStores.local(),
            builds,
            IndexService.installed(),
            BuildOptions.builder().workDirectory(directory).build());
    registry =
        new TableRegistry(
            Map.of("lake", catalog),
            new SegmentScheduler(
                builder, SegmentStore.inDirectory(directory.resolve("segments")), builds),
            Clock.fixed(NOW, ZoneOffset.UTC));
    registry.addListener(published::add);
  }

  @AfterEach
  void tearDown() {
    builds.shutdownNow();
  }

  private static TableConfig.Builder config() {
    return TableConfig.builder(new TableIdentity("lake", "obs", "metrics"));
  }

  /** A data file of the table that does not exist: its segment build fails. */
  private static DataFile missingFile(String name, long sizeInBytes, long records) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath("s3://lake/obs/metrics/data/" + name)
        .withFormat("parquet")
        .withFileSizeInBytes(sizeInBytes)
        .withRecordCount(records)
        .build();
  }

  @Test
  void onboardsAValidConfigAndReportsTheSnapshotTotals() throws Exception {
    Table table = catalog.loadTable(TableIdentifier.of("obs", "metrics"));
    table
        .newAppend()
        .appendFile(missingFile("a.parquet", 1000, 10))
        .appendFile(missingFile("b.parquet", 500, 7))
        .commit();

    ServedTable served =
        registry.onboard(
            config()
                .timeColumn("logical_timestamp")
                .column("metric", ColumnConfig.of(IndexKind.INVERTED))
                .column("logical_timestamp", ColumnConfig.of(IndexKind.RANGE))
                .mapKeys("dimensions", new MapKeySelection.Listed(List.of("node", "service")))
                .build());

    assertThat(served.sqlName()).isEqualTo("obs.metrics");
    assertThat(served.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(served.dataFiles()).isEqualTo(2);
    assertThat(served.records()).isEqualTo(17);
    assertThat(served.dataBytes()).isEqualTo(1500);
    assertThat(served.syncedAt()).isEqualTo(NOW);
    assertThat(served.segmentsPending()).isEqualTo(2);
    assertThat(served.state()).isEqualTo(ServedTable.INDEXING);
    assertThat(published.getFirst()).isEqualTo(served);

    // The files do not exist: each build fails with its reason recorded, and nothing else breaks.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> registry.table("obs.metrics").orElseThrow().segmentsPending() == 0);
    ServedTable done = registry.table("obs.metrics").orElseThrow();
    assertThat(done.state()).isEqualTo(ServedTable.SERVING);
    assertThat(done.segmentsFailed()).isEqualTo(2);
    assertThat(done.segmentsReady()).isZero();
    assertThat(done.failures())
        .extracting(failed -> failed.failure().message())
        .anySatisfy(
            message ->
                assertThat(message)
                    .startsWith("Cannot build the segment of s3://lake/obs/metrics/data/a.parquet"))
        .anySatisfy(
            message -> assertThat(message).contains("s3://lake/obs/metrics/data/b.parquet"));
    assertThat(registry.tables()).containsExactly(done);
    assertThat(published.getLast()).isEqualTo(done);
    assertThat(published).hasSize(3);
  }

  @Test
  void aChangeIsReportedOnlyOnceEveryListenerHasIt() throws Exception {
    // A listener opens segments and routes queries to them: a status that showed a change before
    // the listeners had it would call a table ready that the server does not serve yet.
    List<String> seenDuringPublication = new CopyOnWriteArrayList<>();
    registry.addListener(
        table ->
            seenDuringPublication.add(
                registry
                    .table(table.sqlName())
                    .map(reported -> reported == table ? "this change" : "the previous state")
                    .orElse("nothing")));
    catalog
        .loadTable(TableIdentifier.of("obs", "metrics"))
        .newAppend()
        .appendFile(missingFile("a.parquet", 1000, 10))
        .commit();

    ServedTable served = registry.onboard(config().build());

    assertThat(published.getFirst()).isSameAs(served);
    // The build fails (the file does not exist): a second publication, with the failure.
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> registry.table("obs.metrics").orElseThrow().segmentsPending() == 0);
    assertThat(registry.table("obs.metrics")).containsSame(published.getLast());
    assertThat(seenDuringPublication).containsExactly("nothing", "the previous state");
  }

  @Test
  void tableWithoutSnapshotIsServedEmpty() throws Exception {
    ServedTable served = registry.onboard(config().build());
    assertThat(served.snapshotId()).isEqualTo(-1);
    assertThat(served.dataFiles()).isZero();
  }

  @Test
  void everyIndexChoiceTheSchemaCannotHonourIsReported() {
    TableConfig bad =
        config()
            .timeColumn("metric")
            .column("metric", ColumnConfig.of(IndexKind.RANGE))
            .column("payload", ColumnConfig.of(IndexKind.INVERTED))
            .column("dimensions", ColumnConfig.of(IndexKind.INVERTED))
            .column("nope", ColumnConfig.of(IndexKind.INVERTED))
            .mapKeys("org_id", new MapKeySelection.Listed(List.of("node")))
            .build();

    assertThatThrownBy(() -> registry.onboard(bad))
        .isInstanceOf(OnboardingException.class)
        .hasMessageStartingWith("Cannot onboard table obs.metrics:")
        .hasMessageContaining(
            "Cannot use time-column: column \"metric\" is string (allowed: long epoch millis,"
                + " timestamp or date)")
        .hasMessageContaining(
            "Cannot use columns.metric.indexes: range index on column \"metric\" of type string"
                + " (allowed: int, long, float, double, date, time and timestamp columns)")
        .hasMessageContaining(
            "Cannot use columns.payload.indexes: inverted index on column \"payload\" of type"
                + " binary (allowed: boolean, numeric, decimal, date, time, timestamp, string and"
                + " uuid columns)")
        .hasMessageContaining(
            "Cannot use columns.dimensions.indexes: inverted index on column \"dimensions\" of"
                + " type map<string, string> (allowed: primitive columns; for a map use map-keys)")
        .hasMessageContaining(
            "Cannot use columns.nope.indexes: the table has no column \"nope\" (columns: org_id,"
                + " metric, logical_timestamp, dimensions, payload)")
        .hasMessageContaining(
            "Cannot use map-keys.org_id: column \"org_id\" is long, not a map (map keys can only"
                + " be extracted from map<string, ...> columns)")
        .satisfies(e -> assertThat(((OnboardingException) e).violations()).hasSize(6));
    assertThat(registry.tables()).isEmpty();
  }

  @Test
  void unknownCatalogAndMissingTableAreNamed() {
    assertThatThrownBy(
            () ->
                registry.onboard(
                    TableConfig.builder(new TableIdentity("glue", "obs", "metrics")).build()))
        .isInstanceOf(OnboardingException.class)
        .hasMessageContaining(
            "Cannot use table.catalog: \"glue\" is not a configured catalog (configured: lake)");

    assertThatThrownBy(
            () ->
                registry.onboard(
                    TableConfig.builder(new TableIdentity("lake", "obs", "missing")).build()))
        .isInstanceOf(OnboardingException.class)
        .hasMessageContaining(
            "Cannot load table obs.missing from catalog 'lake': no such table (check"
                + " table.namespace and table.name)");
  }
}
