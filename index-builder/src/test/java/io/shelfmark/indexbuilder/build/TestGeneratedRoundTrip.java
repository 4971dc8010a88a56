package io.shelfmark.indexbuilder.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.TableSnapshot;
import io.shelfmark.config.ConfigLoader;
import io.shelfmark.generator.MetricsTable;
import io.shelfmark.indexbuilder.spec.ColumnSpec;
import io.shelfmark.indexbuilder.spec.DictionaryPagesSpec;
import io.shelfmark.indexbuilder.spec.MapColumnSpec;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.indexbuilder.store.SegmentStore;
import io.shelfmark.indexbuilder.testing.DecodedValues;
import io.shelfmark.indexbuilder.testing.RoundTripChecks;
import io.shelfmark.indexbuilder.testing.TestingMetricsLake;
import io.shelfmark.segment.filter.FilterEvaluator;
import io.shelfmark.segment.filter.FilterResult;
import io.shelfmark.segment.format.PartKey;
import io.shelfmark.segment.format.PartKinds;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.metadata.ChunkPageLayout;
import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.predicate.Predicate;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated benchmark table, small, in an embedded S3 lake: every data file's segment is built
 * with the bundled table config, read back both memory-mapped (after a pin) and with ranged GETs,
 * and every index answers random predicates exactly as a brute-force scan of the values the reader
 * decodes; counts across all segments also equal DuckDB's over the same Parquet files.
 */
class TestGeneratedRoundTrip {
  private static final IndexService INDEXES = IndexService.installed();

  @TempDir static Path directory;
  private static TestingMetricsLake lake;
  private static ExecutorService io;
  private static SegmentSpec spec;
  private static SegmentStore store;
  private static TableSnapshot snapshot;
  private static IndexingReport report;
  private static final List<IndexingProgress> progress = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void buildEverySegment() throws Exception {
    lake = TestingMetricsLake.shared();
    io = Executors.newVirtualThreadPerTaskExecutor();
    spec =
        SegmentSpec.from(
            ConfigLoader.loadBundledTable(ConfigLoader.BENCHMARK_TABLE_RESOURCE),
            lake.table().schema());
    store = new SegmentStore(lake.store(), Location.parse("s3://lake/_shelfmark/round-trip/"));
    snapshot = lake.snapshot();
    report =
        new SnapshotIndexer(builder(), store, 2)
            .index(spec, snapshot, lake.formatVersion(), (outcome, p) -> progress.add(p));
  }

  @AfterAll
  static void close() {
    io.shutdownNow();
  }

  private static SegmentFileBuilder builder() {
    return new SegmentFileBuilder(
        lake.store(),
        io,
        INDEXES,
        BuildOptions.builder().workDirectory(directory.resolve("work")).build());
  }

  @Test
  void testEverySegmentAnswersLikeAScanOfItsFile() throws Exception {
    assertThat(report.failed()).isEmpty();
    assertThat(report.built()).hasSize(snapshot.dataFiles().size());
    assertThat(report.rowsBuilt()).isEqualTo(TestingMetricsLake.SHARED_ROWS);
    assertThat(progress).hasSize(snapshot.dataFiles().size());
    assertThat(progress.getLast().filesDone()).isEqualTo(snapshot.dataFiles().size());
    assertThat(progress.getLast().rowsDone()).isEqualTo(TestingMetricsLake.SHARED_ROWS);

    Path pins = directory.resolve("pins");
    int checked = 0;
    for (DataFileInfo file : snapshot.dataFiles()) {
      Location location = store.locationOf(spec, file.path(), file.fileSizeInBytes());
      Map<String, Value[]> expected =
          DecodedValues.read(
              lake.store(),
              Location.parse(file.path()),
              file.fileSizeInBytes(),
              List.of("org_id", "metric", "resolution", "logical_timestamp"),
              Map.of("dimensions", List.of("node", "service")));
      boolean pinned = checked % 2 == 0;
      try (Segment segment =
          pinned
              ? SegmentStore.openPinned(store.pin(location, pins), INDEXES)
              : store.open(location, INDEXES)) {
        RoundTripChecks.check(segment, expected, checked, 8);
        checkIdentityAndParts(segment, file);
        checkFooterStatistics(segment, file);
        long budget = spec.dictionaryPages().budget(file.fileSizeInBytes());
        assertThat(checkDictionaryPages(segment, file, budget))
            .as("%s: dictionary pages kept within %d bytes", file.path(), budget)
            .isEqualTo(fitting(segment, budget));
      }
      checked++;
    }
    assertThat(checked).isEqualTo(snapshot.dataFiles().size());
  }

  /**
   * The kept dictionary pages are the data file's bytes at chunks' dictionary pages, within the
   * budget; returns how many are kept.
   */
  private static int checkDictionaryPages(Segment segment, DataFileInfo file, long budget)
      throws IOException {
    Map<Long, Integer> dictionaryPages = new HashMap<>();
    for (ChunkPageLayout chunk : segment.pageLayouts(0)) {
      if (chunk.hasDictionaryPage()) {
        dictionaryPages.put(chunk.dictionaryOffset(), chunk.dictionarySize());
      }
    }
    long bytes = 0;
    for (Map.Entry<Long, ByteBuffer> page : segment.dictionaryPages(0).entrySet()) {
      ByteBuffer kept = page.getValue();
      assertThat(dictionaryPages).containsEntry(page.getKey(), kept.remaining());
      byte[] inFile =
          lake.store().readRange(Location.parse(file.path()), page.getKey(), kept.remaining());
      byte[] inSegment = new byte[kept.remaining()];
      kept.duplicate().get(inSegment);
      assertThat(inSegment).as("page at %d of %s", page.getKey(), file.path()).isEqualTo(inFile);
      bytes += inSegment.length;
    }
    assertThat(bytes).isLessThanOrEqualTo(budget);
    return segment.dictionaryPages(0).size();
  }

  /** The generator's Parquet leaf columns, in the files' schema order. */
  private static final List<String> LEAVES =
      List.of(
          "org_id",
          "metric",
          "resolution",
          "logical_timestamp",
          "sum_rollup",
          "latest_rollup",
          "dimensions.key",
          "dimensions.value");

  /**
   * How many dictionary pages fit in {@code budget}: those no data page needs left out, those of
   * the columns the spec does not index first, then the indexed ones, each group by the share of
   * its chunk's rows on dictionary-encoded pages (most first), then smallest first, a page that
   * does not fit skipped.
   */
  private static int fitting(Segment segment, long budget) throws IOException {
    Set<Integer> indexed = new HashSet<>();
    for (ColumnSpec column : spec.columns()) {
      assertThat(LEAVES).contains(column.name());
      indexed.add(LEAVES.indexOf(column.name()));
    }
    for (MapColumnSpec map : spec.mapColumns()) {
      indexed.add(LEAVES.indexOf(map.name() + ".key"));
      indexed.add(LEAVES.indexOf(map.name() + ".value"));
    }
    assertThat(indexed).doesNotContain(-1).doesNotContain(4, 5);
    List<long[]> pages = new ArrayList<>();
    List<ChunkPageLayout> layouts = segment.pageLayouts(0);
    for (int i = 0; i < layouts.size(); i++) {
      ChunkPageLayout chunk = layouts.get(i);
      long encodedRows = 0;
      for (int page = 0; page < chunk.pageCount(); page++) {
        if (!chunk.encodingsKnown() || chunk.dictionaryEncoded(page)) {
          long end = page + 1 < chunk.pageCount() ? chunk.firstRow(page + 1) : chunk.rowCount();
          encodedRows += end - chunk.firstRow(page);
        }
      }
      if (chunk.hasDictionaryPage() && encodedRows > 0) {
        long group = indexed.contains(i % LEAVES.size()) ? 1 : 0;
        // The share as a fraction of the chunk's rows, compared exactly by cross-multiplying.
        pages.add(new long[] {group, encodedRows, chunk.rowCount(), chunk.dictionarySize()});
      }
    }
    pages.sort(
        Comparator.<long[]>comparingLong(p -> p[0])
            .thenComparing((a, b) -> Long.compare(b[1] * a[2], a[1] * b[2]))
            .thenComparingLong(p -> p[3]));
    long used = 0;
    int fits = 0;
    for (long[] page : pages) {
      if (used + page[3] <= budget) {
        used += page[3];
        fits++;
      }
    }
    return fits;
  }

  @Test
  void testDictionaryPageBudgetKeepsUnindexedColumnsPagesFirstWithinIt() throws Exception {
    List<DataFileSource> someFiles = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles().subList(0, 3)) {
      someFiles.add(DataFileSource.of(file, lake.formatVersion()));
    }
    for (long budget : List.of(0L, 300L)) {
      SegmentSpec budgeted = spec.withDictionaryPagesMaxBytes(budget);
      IndexingReport built =
          new SnapshotIndexer(builder(), store, 2)
              .index(budgeted, someFiles, IndexingListener.none());
      assertThat(built.built()).hasSize(3);
      for (DataFileInfo file : snapshot.dataFiles().subList(0, 3)) {
        try (Segment segment =
            store.open(store.locationOf(budgeted, file.path(), file.fileSizeInBytes()), INDEXES)) {
          long effective = budgeted.dictionaryPages().budget(file.fileSizeInBytes());
          int kept = checkDictionaryPages(segment, file, effective);
          if (budget == 0) {
            assertThat(kept).isZero();
            assertThat(segment.tableOfContents().find(PartKey.file(PartKinds.DICTIONARY_PAGES, 0)))
                .isEmpty();
          } else {
            // The documented order: see fitting().
            assertThat(kept).isEqualTo(fitting(segment, effective));
            int all = 0;
            for (ChunkPageLayout chunk : segment.pageLayouts(0)) {
              all += chunk.hasDictionaryPage() ? 1 : 0;
            }
            assertThat(kept).isLessThan(all);
          }
        }
      }
    }
  }

  @Test
  void testDictionaryPagesOfTheListedColumnsOnly() throws Exception {
    List<DataFileSource> someFiles = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles().subList(0, 3)) {
      someFiles.add(DataFileSource.of(file, lake.formatVersion()));
    }
    // metric: dictionary-encoded in every file (sum_rollup is PLAIN in the Java writer's files).
    int metric = LEAVES.indexOf("metric");
    SegmentSpec listed =
        spec.withDictionaryPages(
            new DictionaryPagesSpec(
                1 << 20,
                1.0,
                Optional.of(
                    List.of(
                        new DictionaryPagesSpec.Column(
                            "metric", MetricsTable.SCHEMA.findField("metric").fieldId())))));
    IndexingReport built =
        new SnapshotIndexer(builder(), store, 2).index(listed, someFiles, IndexingListener.none());
    assertThat(built.built()).hasSize(3);
    int keptInAll = 0;
    for (DataFileInfo file : snapshot.dataFiles().subList(0, 3)) {
      try (Segment segment =
          store.open(store.locationOf(listed, file.path(), file.fileSizeInBytes()), INDEXES)) {
        checkDictionaryPages(
            segment, file, listed.dictionaryPages().budget(file.fileSizeInBytes()));
        Set<Long> metricPages = new HashSet<>();
        for (ChunkPageLayout chunk : segment.pageLayouts(0)) {
          boolean needed = false;
          for (int page = 0; page < chunk.pageCount(); page++) {
            needed |= !chunk.encodingsKnown() || chunk.dictionaryEncoded(page);
          }
          if (chunk.column() == metric && chunk.hasDictionaryPage() && needed) {
            metricPages.add(chunk.dictionaryOffset());
          }
        }
        // Every metric page a data page needs (the budget holds them all), nothing else.
        assertThat(segment.dictionaryPages(0).keySet()).isEqualTo(metricPages);
        keptInAll += metricPages.size();
      }
    }
    assertThat(keptInAll).as("metric dictionary pages kept in 3 files").isPositive();
  }

  private static void checkIdentityAndParts(Segment segment, DataFileInfo file) throws IOException {
    DataFileIdentity identity = segment.metadata().files().getFirst().identity();
    assertThat(identity.path()).isEqualTo(file.path());
    assertThat(identity.fileSize()).isEqualTo(file.fileSizeInBytes());
    assertThat(identity.recordCount()).isEqualTo(file.recordCount());
    assertThat(identity.dataSequenceNumber()).hasValue(file.dataSequenceNumber());
    assertThat(identity.specId()).isEqualTo(file.partition().specId());
    assertThat(identity.partition().getFirst().name()).isEqualTo("org_id");
    assertThat(identity.partition().getFirst().value())
        .hasValue(file.partition().values().getFirst().toString());
    // Files are sorted by time and hold one org: sorted indexes replace range and inverted.
    assertThat(segment.indexIds("logical_timestamp")).containsExactly("sorted");
    assertThat(segment.indexIds("org_id")).containsExactly("sorted");
    assertThat(segment.indexIds("metric")).contains("inverted");
    // Extracted keys: inverted where values repeat, bloom where they are nearly unique (node in
    // these small files), forward where the dictionary is small (service, never node here).
    for (String key : List.of("dimensions['service']", "dimensions['node']")) {
      int docs = segment.docCount() - segment.nulls(key).getCardinality();
      List<String> ids = segment.indexIds(key);
      if (ids.contains("inverted")) {
        assertThat(docs).as(key).isGreaterThanOrEqualTo(4 * segment.dictionary(key).get().size());
      } else {
        assertThat(ids).as(key).contains("bloom");
      }
    }
    assertThat(segment.indexIds("dimensions['service']")).contains("forward");
    // The footer and every column chunk's pages are in the segment: a query reads neither again.
    assertThat(segment.footer(0).remaining()).isPositive();
    assertThat(segment.pageLayouts(0))
        .hasSize(8 * segment.metadata().files().getFirst().rowGroupRowCounts().size());
    // parquet-java writes encoding_stats: every chunk's layout says which pages need the
    // dictionary, so a query fetches it only for those (TestDictionaryFallback checks the
    // stats against the page headers).
    assertThat(segment.pageLayouts(0)).allMatch(ChunkPageLayout::encodingsKnown);
  }

  private static void checkFooterStatistics(Segment segment, DataFileInfo file) throws IOException {
    ColumnStatistics sum = segment.statistics().files().getFirst().file().get("sum_rollup");
    assertThat(sum.rowCount()).isEqualTo(file.recordCount());
    assertThat(sum.nullCount()).hasValue(0);
    assertThat(sum.min()).isPresent();
    // Footers leave NaN out of a floating-point maximum, so it is never copied as an upper bound.
    assertThat(sum.max()).isEmpty();
    for (int rowGroup = 0;
        rowGroup < segment.metadata().files().getFirst().rowGroupRowCounts().size();
        rowGroup++) {
      assertThat(segment.statistics().rowGroup(0, rowGroup, "latest_rollup")).isPresent();
    }
  }

  @Test
  void testCountsAcrossSegmentsEqualDuckDb() throws Exception {
    assertThat(report.failed()).isEmpty();

    long q2 = 0;
    long needle = 0;
    long services = 0;
    List<Path> files = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles()) {
      files.add(lake.localFile(file));
      try (Segment segment =
          store.open(store.locationOf(spec, file.path(), file.fileSizeInBytes()), INDEXES)) {
        FilterEvaluator evaluator = new FilterEvaluator(segment);
        q2 +=
            evaluator
                .evaluate(
                    Predicate.and(
                        Predicate.eq("metric", "tk_cache"),
                        Predicate.eq("org_id", 184833768L),
                        Predicate.eq("resolution", 15000L)))
                .definite()
                .getLongCardinality();
        needle += needles(segment, file);
        services +=
            evaluator
                .evaluate(Predicate.not(Predicate.isNull("dimensions['service']")))
                .definite()
                .getLongCardinality();
      }
    }
    try (DuckDbOracle duckDb = DuckDbOracle.open()) {
      duckDb.registerTable("obs.metrics", files);
      assertThat(
              count(
                  duckDb,
                  "SELECT count(*) FROM obs.metrics WHERE metric = 'tk_cache' AND org_id = 184833768"
                      + " AND resolution = 15000"))
          .isEqualTo(q2)
          .isPositive();
      assertThat(
              count(
                  duckDb,
                  "SELECT count(*) FROM obs.metrics WHERE element_at(dimensions, 'node')[1] = 'xyz'"))
          .isEqualTo(needle);
      assertThat(
              count(
                  duckDb,
                  "SELECT count(*) FROM obs.metrics WHERE element_at(dimensions, 'service')[1] IS NOT"
                      + " NULL"))
          .isEqualTo(services)
          .isEqualTo(TestingMetricsLake.SHARED_ROWS);
    }
  }

  /**
   * Rows with node 'xyz': definite docs, plus the bloom index's candidates whose value, decoded
   * from the file, matches (what the server's residual check does). An absent needle is an exact
   * empty answer, so only the few files holding it are decoded.
   */
  private static long needles(Segment segment, DataFileInfo file) throws IOException {
    FilterResult result =
        new FilterEvaluator(segment).evaluate(Predicate.eq("dimensions['node']", "xyz"));
    long count = result.definite().getLongCardinality();
    if (!result.candidates().isEmpty()) {
      Value[] nodes =
          DecodedValues.read(
                  lake.store(),
                  Location.parse(file.path()),
                  file.fileSizeInBytes(),
                  List.of(),
                  Map.of("dimensions", List.of("node")))
              .get("dimensions['node']");
      for (int doc : result.candidates().toArray()) {
        if (Value.of("xyz").equals(nodes[doc])) {
          count++;
        }
      }
    }
    return count;
  }

  private static long count(DuckDbOracle duckDb, String sql) {
    return ((Number) duckDb.query(sql).rows().getFirst().getFirst()).longValue();
  }

  @Test
  void testSecondRunReusesEverySegment() throws Exception {
    IndexingReport second =
        new SnapshotIndexer(builder(), store, 2)
            .index(spec, snapshot, lake.formatVersion(), IndexingListener.none());

    assertThat(second.built()).isEmpty();
    assertThat(second.reused()).hasSize(snapshot.dataFiles().size());
    assertThat(second.segmentBytes()).isEqualTo(report.segmentBytes());
    assertThat(second.dataBytes()).isEqualTo(report.dataBytes());
    // Another spec (here another forward policy) has its own directory: nothing is reused.
    List<DataFileSource> someFiles = new ArrayList<>();
    for (DataFileInfo file : snapshot.dataFiles().subList(0, 3)) {
      someFiles.add(DataFileSource.of(file, lake.formatVersion()));
    }
    IndexingReport other =
        new SnapshotIndexer(builder(), store, 2)
            .index(spec.withForwardMaxCardinality(8), someFiles, IndexingListener.none());
    assertThat(other.reused()).isEmpty();
    assertThat(other.built()).hasSize(3);
    try (var staged = Files.list(directory.resolve("work"))) {
      assertThat(staged).as("staging files are deleted").isEmpty();
    }
  }
}
