package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.metadata.TestingParquetFiles.Layout;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.roaringbitmap.RoaringBitmap;

class TestParquetFileReader {
  private static final List<String> FLAT_COLUMNS = List.of("id", "name", "score");

  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Path v1;
  private static Path v2;
  private static Path withLists;

  private final LocalObjectStore store = LocalObjectStore.unconfined();

  @BeforeAll
  static void writeFiles() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    // 3 row groups of 1000 rows (the last of 500), pages of 100 rows.
    v1 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("v1.parquet"),
            2_500,
            Layout.flat(WriterVersion.PARQUET_1_0, 1_000, 100));
    v2 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("v2.parquet"),
            2_500,
            Layout.flat(WriterVersion.PARQUET_2_0, 1_000, 100));
    withLists =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("lists.parquet"),
            1_500,
            new Layout(
                TestingParquetFiles.WITH_LIST,
                WriterVersion.PARQUET_1_0,
                600,
                50,
                CompressionCodecName.GZIP));
  }

  @AfterAll
  static void stopExecutor() {
    executor.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void readsEveryRow(WriterVersion version) throws IOException {
    Path file = version == WriterVersion.PARQUET_1_0 ? v1 : v2;
    List<RowGroupBatch> batches = readAll(request(file, FLAT_COLUMNS, RowSelection.all()));

    assertThat(batches).extracting(RowGroupBatch::rowGroup).containsExactly(0, 1, 2);
    assertThat(TestingRows.rows(batches))
        .isEqualTo(TestingRows.expected(range(0, 2_500), FLAT_COLUMNS));
  }

  @ParameterizedTest
  @EnumSource(WriterVersion.class)
  void readsRandomSelections(WriterVersion version) throws IOException {
    Path file = version == WriterVersion.PARQUET_1_0 ? v1 : v2;
    Random random = new Random(42);
    for (int round = 0; round < 10; round++) {
      RoaringBitmap rows = randomRows(random, 2_500, 1 + random.nextInt(40));
      List<RowGroupBatch> batches = readAll(request(file, FLAT_COLUMNS, RowSelection.of(rows)));
      assertThat(TestingRows.rows(batches))
          .as("round %d, rows %s", round, rows)
          .isEqualTo(TestingRows.expected(rows, FLAT_COLUMNS));
    }
  }

  @Test
  void readsFileWithoutPageIndexByWalkingHeadersAndReusesTheChunkBytes() throws IOException {
    Path stripped = TestingParquetFiles.stripPageIndex(v1, directory.resolve("no-index.parquet"));
    RoaringBitmap rows = RoaringBitmap.bitmapOf(5, 150, 1_999, 2_000, 2_499);
    ParquetFileReader reader = reader(ReaderOptions.defaults());
    // The footer handed in, as from a segment that has no page locations for the file.
    try (ParquetRead read =
        reader.start(requestWithFooter(stripped, FLAT_COLUMNS, RowSelection.of(rows)))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(TestingRows.expected(rows, FLAT_COLUMNS));
      // Every chunk was walked from bytes fetched once: no page is fetched a second time.
      assertThat(read.pageReads()).isEmpty();
      assertThat(read.pageLocations().find(0, 1).orElseThrow().source())
          .isEqualTo(ColumnChunkPages.Source.HEADER_WALK);
      // The three row groups' chunks, adjacent: one coalesced GET.
      assertThat(read.stats().requests()).isEqualTo(1);
    }
  }

  @Test
  void readsListsWithRepeatedLevelsInV1PagesWithAndWithoutPageIndex() throws IOException {
    List<String> columns = List.of("id", "tags");
    Path stripped =
        TestingParquetFiles.stripPageIndex(withLists, directory.resolve("lists-no-index.parquet"));
    RoaringBitmap rows = randomRows(new Random(7), 1_500, 60);
    for (Path file : List.of(withLists, stripped)) {
      assertThat(TestingRows.rows(readAll(request(file, columns, RowSelection.of(rows)))))
          .as("file %s", file.getFileName())
          .isEqualTo(TestingRows.expected(rows, columns));
    }
    // The header walk counted the rows of every v1 page of tags from its repetition levels.
    try (ParquetRead withIndex =
            reader(ReaderOptions.defaults())
                .start(request(withLists, columns, RowSelection.all()));
        ParquetRead walked =
            reader(ReaderOptions.defaults())
                .start(request(stripped, columns, RowSelection.all()))) {
      for (int rowGroup = 0; rowGroup < 3; rowGroup++) {
        assertThat(walked.pageLocations().find(rowGroup, 3).orElseThrow().pages())
            .isEqualTo(withIndex.pageLocations().find(rowGroup, 3).orElseThrow().pages());
      }
    }
  }

  @Test
  void takesOffsetIndexesOfALargerFileFromTheFooterTail() throws IOException {
    Path large =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("large.parquet"),
            40_000,
            Layout.flat(WriterVersion.PARQUET_1_0, 20_000, 100));
    assertThat(Files.size(large))
        .isGreaterThan(4L * ReaderOptions.DEFAULT_FOOTER_TAIL_SIZE.bytes());
    RoaringBitmap rows = RoaringBitmap.bitmapOf(7, 19_999, 33_333);
    try (ParquetRead read =
        reader(ReaderOptions.defaults())
            .start(request(large, FLAT_COLUMNS, RowSelection.of(rows)))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(TestingRows.expected(rows, FLAT_COLUMNS));
      assertThat(read.pageLocations().find(1, 2).orElseThrow().source())
          .isEqualTo(ColumnChunkPages.Source.OFFSET_INDEX);
      // One GET for the tail (footer and the offset indexes beside it), then only page reads.
      assertThat(read.stats().requests()).isEqualTo(1 + read.pageReads().size());
      assertThat(read.stats().pagesRead()).isEqualTo(3 * 3);
    }
  }

  @Test
  void reusesFooterAndPageLocationsOfAnEarlierRead() throws IOException {
    ParquetFileReader reader = reader(ReaderOptions.defaults());
    ReadRequest first = request(v1, FLAT_COLUMNS, RowSelection.all());
    FilePageLocations locations;
    var footer = (io.shelfmark.parquet.metadata.ParquetFooter) null;
    try (ParquetRead read = reader.start(first)) {
      read.readAll();
      locations = read.pageLocations();
      footer = read.footer();
      // The file is smaller than the 64 KiB footer tail: footer, offset indexes and pages all
      // come from that one GET.
      assertThat(read.stats().requests()).isEqualTo(1);
      assertThat(read.pageReads()).isEmpty();
    }
    FilePageLocations restored =
        FilePageLocations.deserialize(java.nio.ByteBuffer.wrap(locations.serialize()));
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1_234);
    StorageStats.Snapshot before = store.stats().snapshot();
    try (ParquetRead read =
        reader.start(
            ReadRequest.of(location(v1), footer, restored, FLAT_COLUMNS, RowSelection.of(rows)))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(TestingRows.expected(rows, FLAT_COLUMNS));
      assertThat(read.stats().requests()).isEqualTo(1); // the pages only
    }
    assertThat(store.stats().snapshot().minus(before).getRequests()).isEqualTo(1);
  }

  @Test
  void skipsRowGroupsWithoutSelectedRows() throws IOException {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1_500, 1_501);
    try (ParquetRead read =
        reader(ReaderOptions.defaults()).start(request(v1, FLAT_COLUMNS, RowSelection.of(rows)))) {
      assertThat(read.plan().rowGroups())
          .extracting(plan -> plan.access())
          .containsExactly(RowGroupAccess.SKIP, RowGroupAccess.SELECTION, RowGroupAccess.SKIP);
      assertThat(read.hasNext()).isTrue();
      RowGroupBatch batch = read.next();
      assertThat(batch.rowGroup()).isEqualTo(1);
      assertThat(batch.column("score").values().doubles()).startsWith(375.0, 375.25);
      assertThat(read.hasNext()).isFalse();
      // Only the offset indexes of row group 1 were read, and one page per column.
      assertThat(read.pageLocations().find(0, 0)).isEmpty();
      assertThat(read.stats().pagesRead()).isEqualTo(3);
    }
  }

  @Test
  void readsListFieldByItsFieldPath() throws IOException {
    try (ParquetRead read =
        reader(ReaderOptions.defaults())
            .start(request(withLists, List.of("tags", "tags"), RowSelection.all()))) {
      assertThat(read.columns())
          .extracting(column -> column.dottedPath())
          .containsExactly("tags.list.element");
    }
  }

  @Test
  void startsFetchingBeforeTheCallerConsumes() throws IOException {
    ReadRequest request = requestWithFooter(v1, FLAT_COLUMNS, RowSelection.all());
    StorageStats.Snapshot before = store.stats().snapshot();
    try (ParquetRead read = reader(ReaderOptions.defaults()).start(request)) {
      int pageReads = read.pageReads().size();
      assertThat(pageReads).isPositive();
      // The offset indexes are read during start; the page GETs run on the executor while the
      // caller has not asked for a single row.
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> store.stats().snapshot().minus(before).getRequests() == 1 + pageReads);
      assertThat(read.stats().pagesRead()).isZero();
      read.readAll();
      assertThat(store.stats().snapshot().minus(before).getRequests()).isEqualTo(1 + pageReads);
    }
  }

  @Test
  void prefetchBudgetHoldsBackReadsUntilEarlierOnesAreConsumed() throws IOException {
    ReaderOptions options =
        ReaderOptions.builder()
            .maxMergeDistance(DataSize.ofBytes(0))
            .maxBufferSize(DataSize.ofBytes(256))
            .maxPrefetchBytes(DataSize.ofBytes(1))
            .build();
    try (ParquetRead read =
        reader(options).start(requestWithFooter(v1, List.of("score"), RowSelection.all()))) {
      List<ByteRange> reads = read.pageReads();
      assertThat(reads.size()).isGreaterThan(10); // split into reads of at most 256 bytes
      // A budget of one byte: only the first read is in flight before anything is consumed.
      assertThat(read.isFetchStarted(reads.get(0))).isTrue();
      assertThat(read.isFetchStarted(reads.get(reads.size() - 1))).isFalse();
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(TestingRows.expected(range(0, 2_500), List.of("score")));
      assertThat(read.isFetchStarted(reads.get(reads.size() - 1))).isTrue();
    }
  }

  @Test
  void selectedEntriesMatchAFullReadAndTheRestAreNotNull() throws IOException {
    List<String> columns = List.of("id", "tags");
    List<RowGroupBatch> full = readAll(request(withLists, columns, RowSelection.all()));
    List<RowGroupBatch> selected;
    try (ParquetRead read =
        reader(ReaderOptions.defaults()).start(request(withLists, columns, RowSelection.all()))) {
      // Tags of even ids only, chosen from the ids decoded just before them.
      read.selectEntries(1, 0, TestParquetFileReader::evenIdEntries);
      selected = read.readAll();
    }

    assertThat(selected).hasSameSizeAs(full);
    int passedOver = 0;
    for (int g = 0; g < full.size(); g++) {
      ColumnBatch all = full.get(g).columns().get(1);
      ColumnBatch some = selected.get(g).columns().get(1);
      assertThat(some.valueCount()).isEqualTo(all.valueCount());
      assertThat(some.offsets(1)).isEqualTo(all.offsets(1));
      int[] offsets = all.offsets(1);
      long[] ids = full.get(g).columns().get(0).values().longs();
      for (int row = 0; row < all.rowCount(); row++) {
        for (int e = offsets[row]; e < offsets[row + 1]; e++) {
          assertThat(some.isNull(e)).isEqualTo(all.isNull(e));
          if (ids[row] % 2 == 0) {
            assertThat(some.values().string(e)).isEqualTo(all.values().string(e));
          } else if (some.values().string(e).isEmpty()) {
            passedOver++;
          }
        }
      }
    }
    // Tags are never empty strings: an empty one was passed over, not decoded.
    assertThat(passedOver).isPositive();
  }

  @Test
  void entriesAreSelectedOnlyByAColumnReadBefore() throws IOException {
    try (ParquetRead read =
        reader(ReaderOptions.defaults())
            .start(request(withLists, List.of("id", "tags"), RowSelection.all()))) {
      assertThatThrownBy(() -> read.selectEntries(0, 1, ids -> null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "Cannot select entries of column 0 by column 1: the source must be read before the target, among 2 columns");
    }
  }

  /** Wanted flags for the tag entries of even ids: row r holds {@code id % 4} tags. */
  private static boolean[] evenIdEntries(ColumnBatch ids) {
    long[] values = ids.values().longs();
    int entries = 0;
    for (int row = 0; row < ids.rowCount(); row++) {
      entries += (int) (values[row] % 4);
    }
    boolean[] wanted = new boolean[entries];
    int entry = 0;
    for (int row = 0; row < ids.rowCount(); row++) {
      for (int j = 0; j < values[row] % 4; j++) {
        wanted[entry++] = values[row] % 2 == 0;
      }
    }
    return wanted;
  }

  @Test
  void rejectsUnknownColumn() {
    assertThatThrownBy(() -> readAll(request(v1, List.of("id", "nope"), RowSelection.all())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot read column nope of %s: no such column (the file's leaf columns are [id, name, score])"
                .formatted(location(v1)));
  }

  @Test
  void rejectsRowsPastTheEndOfTheFile() {
    assertThatThrownBy(
            () ->
                readAll(
                    request(v1, FLAT_COLUMNS, RowSelection.of(RoaringBitmap.bitmapOf(3, 2_500)))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot select row 2500 of %s: the file has 2500 rows (row ordinals are 0-based positions in the file)"
                .formatted(location(v1)));
  }

  @Test
  void rejectsPageLocationsOfAnotherFile() throws IOException {
    FilePageLocations otherFile;
    try (ParquetRead read =
        reader(ReaderOptions.defaults())
            .start(request(withLists, List.of("id"), RowSelection.all()))) {
      otherFile = read.pageLocations();
    }
    var footer =
        io.shelfmark.parquet.metadata.FooterReader.withDefaults()
            .read(store, location(v1), Files.size(v1));
    assertThatThrownBy(
            () ->
                reader(ReaderOptions.defaults())
                    .start(
                        ReadRequest.of(
                            location(v1), footer, otherFile, FLAT_COLUMNS, RowSelection.all())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot use page locations for %s: they cover 3 row groups of 4 columns but the file has 3 of 3 (were they built for another file?)"
                .formatted(location(v1)));
  }

  @Test
  void rejectsPageLocationsThatContradictTheFooter() throws IOException {
    var footer =
        io.shelfmark.parquet.metadata.FooterReader.withDefaults()
            .read(store, location(v1), Files.size(v1));
    FilePageLocations lying =
        FilePageLocations.builder(3, 3)
            .add(
                0,
                0,
                new ColumnChunkPages(
                    -1,
                    0,
                    List.of(new io.shelfmark.parquet.metadata.PageLocation(Files.size(v1), 100, 0)),
                    1_000,
                    ColumnChunkPages.Source.OFFSET_INDEX))
            .build();
    assertThatThrownBy(
            () ->
                reader(ReaderOptions.defaults())
                    .start(
                        ReadRequest.of(
                            location(v1), footer, lying, List.of("id"), RowSelection.all())))
        .isInstanceOfSatisfying(
            CorruptParquetException.class,
            e -> {
              assertThat(e.rowGroup()).isEqualTo(0);
              assertThat(e.column()).isEqualTo("id");
            })
        .hasMessageContaining(
            "page locations (ColumnChunkPages[1 pages, 1000 rows, from OFFSET_INDEX]")
        .hasMessageContaining("do not match the column chunk of 1000 rows");
  }

  private ParquetFileReader reader(ReaderOptions options) {
    return new ParquetFileReader(store, executor, options);
  }

  private List<RowGroupBatch> readAll(ReadRequest request) throws IOException {
    try (ParquetRead read = reader(ReaderOptions.defaults()).start(request)) {
      return read.readAll();
    }
  }

  /** A request carrying the footer, read beforehand: the read holds no tail bytes. */
  private ReadRequest requestWithFooter(Path file, List<String> columns, RowSelection rows)
      throws IOException {
    var footer =
        io.shelfmark.parquet.metadata.FooterReader.withDefaults()
            .read(store, location(file), Files.size(file));
    return new ReadRequest(
        location(file),
        Files.size(file),
        java.util.Optional.of(footer),
        java.util.Optional.empty(),
        columns,
        rows);
  }

  static ReadRequest request(Path file, List<String> columns, RowSelection rows)
      throws IOException {
    return ReadRequest.of(location(file), Files.size(file), columns, rows);
  }

  static Location location(Path file) {
    return Location.parse(file.toAbsolutePath().toString());
  }

  static RoaringBitmap range(int from, int to) {
    RoaringBitmap rows = new RoaringBitmap();
    rows.add((long) from, (long) to);
    return rows;
  }

  static RoaringBitmap randomRows(Random random, int rowCount, int count) {
    RoaringBitmap rows = new RoaringBitmap();
    while (rows.getCardinality() < count) {
      rows.add(random.nextInt(rowCount));
    }
    return rows;
  }
}
