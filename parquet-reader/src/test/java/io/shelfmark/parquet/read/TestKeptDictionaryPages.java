package io.shelfmark.parquet.read;

import static io.shelfmark.parquet.read.TestParquetFileReader.randomRows;
import static io.shelfmark.parquet.read.TestParquetFileReader.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.plan.KeptDictionaryPages;
import io.shelfmark.parquet.plan.PagePlan;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.local.LocalObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * Dictionary pages the caller holds (a segment keeps them): the plan neither fetches nor counts
 * them, and the rows decode as from a read that fetched them.
 */
class TestKeptDictionaryPages {
  private static final List<String> COLUMNS = List.of("id", "name", "score");

  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Path file;
  private static ParquetFooter footer;
  private static FilePageLocations locations;

  @BeforeAll
  static void writeFile() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    // 3 row groups of 1000 rows, pages of 100 rows; `name` is dictionary-encoded.
    file = TestingParquetFiles.writeZstdV1(directory.resolve("v1.parquet"), 3_000);
    try (ParquetRead read = reader().start(request(file, COLUMNS, RowSelection.all()))) {
      footer = read.footer();
      locations = read.pageLocations();
    }
  }

  @AfterAll
  static void stop() {
    executor.shutdownNow();
  }

  @Test
  void keptPagesAreNeitherFetchedNorCounted() throws IOException {
    KeptDictionaryPages kept = allDictionaryPages();
    assertThat(kept.pageCount()).as("one dictionary page of name per row group").isEqualTo(3);
    Random random = new Random(3);
    for (int round = 0; round < 10; round++) {
      RoaringBitmap rows = randomRows(random, 3_000, 1 + random.nextInt(500));
      ReadRequest plain = serverRequest(rows);
      long plainBound;
      long plainBytes;
      try (ParquetRead read = reader().start(plain)) {
        assertThat(TestingRows.rows(read.readAll())).isEqualTo(TestingRows.expected(rows, COLUMNS));
        plainBound = read.stats().lowerBoundBytes();
        plainBytes = read.stats().bytesRead();
      }
      try (ParquetRead read = reader().start(plain.withKeptDictionaryPages(kept))) {
        PagePlan plan = read.plan();
        assertThat(TestingRows.rows(read.readAll()))
            .as("round %d", round)
            .isEqualTo(TestingRows.expected(rows, COLUMNS));
        long keptBytes = 0;
        for (var rowGroup : plan.rowGroups()) {
          for (var chunk : rowGroup.columns()) {
            if (chunk.dictionaryKept()) {
              keptBytes += chunk.dictionaryPage().orElseThrow().length();
            }
          }
        }
        assertThat(plan.dictionaryPageCount()).as("fetched dictionary pages").isZero();
        assertThat(plan.keptDictionaryPageCount()).isPositive();
        assertThat(keptBytes).isPositive();
        assertThat(read.stats().lowerBoundBytes()).isEqualTo(plainBound - keptBytes);
        assertThat(read.stats().dictionaryPagesRead()).isEqualTo(plan.keptDictionaryPageCount());
        for (ByteRange planned : plan.ranges()) {
          assertThat(kept.holds(planned)).as("planned fetch of kept page %s", planned).isFalse();
        }
        // A GET may still span a kept page as the gap between two fetched pages (adjacent ones
        // merge: the coalescer's rule, one request rather than two), never more than without it.
        assertThat(read.stats().bytesRead()).isLessThanOrEqualTo(plainBytes);
      }
    }
  }

  @Test
  void aKeptPageOfAnotherLengthIsNotUsed() throws IOException {
    // Bytes kept for another layout of the file (a different length at the same offset) must not
    // stand in for the page: it is fetched.
    Map<Long, ByteBuffer> wrong = new TreeMap<>();
    for (Map.Entry<ByteRange, ByteBuffer> page : allDictionaryPages().pages().entrySet()) {
      ByteBuffer bytes = page.getValue();
      wrong.put(page.getKey().offset(), bytes.slice(0, bytes.remaining() - 1));
    }
    RoaringBitmap rows = TestParquetFileReader.range(0, 3_000);
    try (ParquetRead read =
        reader()
            .start(serverRequest(rows).withKeptDictionaryPages(KeptDictionaryPages.of(wrong)))) {
      assertThat(TestingRows.rows(read.readAll())).isEqualTo(TestingRows.expected(rows, COLUMNS));
      assertThat(read.plan().keptDictionaryPageCount()).isZero();
      assertThat(read.plan().dictionaryPageCount()).isEqualTo(3);
    }
  }

  private static KeptDictionaryPages allDictionaryPages() throws IOException {
    Map<Long, ByteBuffer> pages = new TreeMap<>();
    LocalObjectStore store = LocalObjectStore.unconfined();
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < footer.columnCount(); column++) {
        ColumnChunkPages chunk = locations.find(rowGroup, column).orElseThrow();
        if (chunk.hasDictionaryPage()) {
          byte[] bytes =
              store.readRange(
                  TestParquetFileReader.location(file),
                  chunk.dictionaryOffset(),
                  chunk.dictionarySize());
          pages.put(chunk.dictionaryOffset(), ByteBuffer.wrap(bytes));
        }
      }
    }
    return KeptDictionaryPages.of(pages);
  }

  private static ReadRequest serverRequest(RoaringBitmap rows) {
    return ReadRequest.of(
        TestParquetFileReader.location(file), footer, locations, COLUMNS, RowSelection.of(rows));
  }

  private static ParquetFileReader reader() {
    return new ParquetFileReader(LocalObjectStore.unconfined(), executor, ReaderOptions.defaults());
  }
}
