package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.lake.EmbeddedS3Server;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.metadata.TestingParquetFiles.Layout;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.s3.S3ObjectStore;
import io.shelfmark.storage.s3.S3StoreOptions;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Page selectivity measured where it matters: requests and bytes on a real S3 endpoint (the
 * embedded server), with the footer and page locations already known, as a server has them from a
 * segment.
 *
 * <p>Fixture: one row group of 2000 rows, pages of 200 rows: ten pages per column, {@code name}
 * dictionary-encoded.
 */
class TestPageSelectivity {
  private static final Location FILE = Location.parse("s3://lake/table/data/00000-0.parquet");
  private static final int NAME = 1;

  @TempDir static Path directory;
  private static EmbeddedS3Server server;
  private static S3ObjectStore store;
  private static ExecutorService executor;
  private static long fileSize;
  private static ParquetFooter footer;
  private static FilePageLocations locations;

  @BeforeAll
  static void uploadFile() throws IOException {
    server = EmbeddedS3Server.builder().baseDirectory(directory.resolve("s3")).build();
    server.start();
    server.createBucket("lake");
    store =
        new S3ObjectStore(
            S3StoreOptions.builder()
                .endpoint(server.endpoint())
                .region(EmbeddedS3Server.REGION)
                .pathStyleAccess(true)
                .credentials(server.accessKey(), server.secretKey())
                .build());
    executor = Executors.newFixedThreadPool(4);
    Path local =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("data.parquet"),
            2_000,
            Layout.flat(WriterVersion.PARQUET_1_0, 2_000, 200));
    store.upload(FILE, local);
    fileSize = Files.size(local);
    footer = FooterReader.withDefaults().read(store, FILE, fileSize);
    locations =
        new PageLocationLoader(store, executor, ReaderOptions.defaults()).load(FILE, footer);
  }

  @AfterAll
  static void stop() throws IOException {
    executor.shutdownNow();
    store.close();
    server.close();
  }

  @Test
  void readsFooterWithOneGet() throws IOException {
    StorageStats.Snapshot before = store.stats().snapshot();
    ParquetFooter read = FooterReader.withDefaults().read(store, FILE, fileSize);
    StorageStats.Snapshot used = store.stats().snapshot().minus(before);
    assertThat(used.requests()).isEqualTo(1);
    assertThat(used.getRequests()).isEqualTo(1);
    assertThat(used.bytesRead()).isEqualTo(Math.min(fileSize, FooterReader.DEFAULT_TAIL_SIZE));
    assertThat(read.metadata()).isEqualTo(footer.metadata());
  }

  @Test
  void readsOnlyThePageHoldingTheRowsAndItsDictionary() throws IOException {
    ColumnChunkPages name = locations.find(0, NAME).orElseThrow();
    assertThat(name.pageCount()).isEqualTo(10);
    assertThat(name.hasDictionaryPage()).isTrue();
    PageLocation page3 = name.page(3); // rows 600 to 799
    RoaringBitmap rows = TestParquetFileReader.range(650, 661);

    Measured measured = read(List.of("name"), rows, 0);

    assertThat(TestingRows.rows(measured.batches()))
        .isEqualTo(TestingRows.expected(rows, List.of("name")));
    // Two GETs: the dictionary page and page 3 are not adjacent (pages 0-2 lie between them).
    assertThat(measured.storage().getRequests()).isEqualTo(2);
    assertThat(measured.storage().bytesRead())
        .isEqualTo(name.dictionarySize() + page3.compressedSize());
    assertThat(measured.read().requests()).isEqualTo(2);
    assertThat(measured.read().bytesRead()).isEqualTo(measured.storage().bytesRead());
    assertThat(measured.read().lowerBoundBytes()).isEqualTo(measured.storage().bytesRead());
    assertThat(measured.read().pagesPlanned()).isEqualTo(1);
    assertThat(measured.read().pagesRead()).isEqualTo(1);
    assertThat(measured.read().dictionaryPagesRead()).isEqualTo(1);
  }

  @Test
  void mergesAdjacentPagesIntoOneRequest() throws IOException {
    ColumnChunkPages name = locations.find(0, NAME).orElseThrow();
    RoaringBitmap rows = TestParquetFileReader.range(790, 811); // pages 3 (600-799) and 4 (800-999)
    assertThat(name.page(3).end()).isEqualTo(name.page(4).offset());

    Measured measured = read(List.of("name"), rows, 0);

    assertThat(TestingRows.rows(measured.batches()))
        .isEqualTo(TestingRows.expected(rows, List.of("name")));
    assertThat(measured.read().pagesPlanned()).isEqualTo(2);
    // The dictionary, and pages 3 and 4 as one ranged GET.
    assertThat(measured.storage().getRequests()).isEqualTo(2);
    assertThat(measured.storage().bytesRead())
        .isEqualTo(
            name.dictionarySize() + name.page(3).compressedSize() + name.page(4).compressedSize());
  }

  @Test
  void mergesAcrossSmallGapsWhenTheMergeDistanceAllows() throws IOException {
    ColumnChunkPages name = locations.find(0, NAME).orElseThrow();
    RoaringBitmap rows = TestParquetFileReader.range(650, 661);

    Measured measured = read(List.of("name"), rows, 1 << 20);

    // One GET from the dictionary page to the end of page 3, the pages between included.
    assertThat(measured.storage().getRequests()).isEqualTo(1);
    assertThat(measured.storage().bytesRead())
        .isEqualTo(name.page(3).end() - name.dictionaryOffset());
    assertThat(measured.read().lowerBoundBytes())
        .isEqualTo(name.dictionarySize() + name.page(3).compressedSize());
  }

  @Test
  void theCostModelReadsASmallChunksSpanWhole() throws IOException {
    // The dictionary and page 3 are two requests page by page; at a request's default cost (1 MiB)
    // the pages between are cheaper to read through: one GET over the span, same rows decoded.
    ColumnChunkPages name = locations.find(0, NAME).orElseThrow();
    RoaringBitmap rows = TestParquetFileReader.range(650, 661);

    Measured measured = read(List.of("name"), rows, 0, ReaderOptions.ChunkReads.COST);

    assertThat(TestingRows.rows(measured.batches()))
        .isEqualTo(TestingRows.expected(rows, List.of("name")));
    assertThat(measured.storage().getRequests()).isEqualTo(1);
    assertThat(measured.storage().bytesRead())
        .isEqualTo(name.page(3).end() - name.dictionaryOffset());
    assertThat(measured.read().chunksReadWhole()).isEqualTo(1);
    assertThat(measured.read().pagesRead()).isEqualTo(1);
    assertThat(measured.read().lowerBoundBytes())
        .isEqualTo(name.dictionarySize() + name.page(3).compressedSize());
  }

  @Test
  void readsOnePagePerColumnForASingleRow() throws IOException {
    RoaringBitmap rows = RoaringBitmap.bitmapOf(1_234); // page 6 of every column
    List<String> columns = List.of("id", "name", "score");

    Measured measured = read(columns, rows, 0);

    assertThat(TestingRows.rows(measured.batches())).isEqualTo(TestingRows.expected(rows, columns));
    long expected = 0;
    for (int column = 0; column < 3; column++) {
      ColumnChunkPages pages = locations.find(0, column).orElseThrow();
      expected += pages.dictionarySize() + pages.page(6).compressedSize();
    }
    assertThat(measured.read().pagesRead()).isEqualTo(3);
    assertThat(measured.storage().bytesRead()).isEqualTo(expected);
    assertThat(measured.read().lowerBoundBytes()).isEqualTo(expected);
  }

  private record Measured(
      List<RowGroupBatch> batches, StorageStats.Snapshot storage, ReadStats read) {}

  private static Measured read(List<String> columns, RoaringBitmap rows, long mergeDistance)
      throws IOException {
    // Page by page: these tests are about which pages a selection fetches.
    return read(columns, rows, mergeDistance, ReaderOptions.ChunkReads.PAGES);
  }

  private static Measured read(
      List<String> columns,
      RoaringBitmap rows,
      long mergeDistance,
      ReaderOptions.ChunkReads chunkReads)
      throws IOException {
    ReaderOptions options =
        ReaderOptions.builder()
            .maxMergeDistance(DataSize.ofBytes(mergeDistance))
            .chunkReads(chunkReads)
            .build();
    ParquetFileReader reader = new ParquetFileReader(store, executor, options);
    StorageStats.Snapshot before = store.stats().snapshot();
    try (ParquetRead read =
        reader.start(ReadRequest.of(FILE, footer, locations, columns, RowSelection.of(rows)))) {
      List<RowGroupBatch> batches = read.readAll();
      return new Measured(batches, store.stats().snapshot().minus(before), read.stats());
    }
  }
}
