package io.shelfmark.parquet.read;

import static io.shelfmark.parquet.read.TestParquetFileReader.randomRows;
import static io.shelfmark.parquet.read.TestParquetFileReader.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.decode.DecompressedPages;
import io.shelfmark.parquet.decode.MemoryDecodedDictionaries;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.metadata.TestingParquetFiles.Layout;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.local.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** Decoded dictionaries kept across reads: found again, shared unharmed, named by file, bounded. */
class TestDecodedDictionaries {
  private static final List<String> COLUMNS = List.of("id", "name", "score");
  // The dictionary pages of `name`, one per row group of each file.
  private static final int DICTIONARY_PAGES = 2;

  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Path v1;
  private static Path v2;

  @BeforeAll
  static void writeFiles() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    v1 = TestingParquetFiles.writeZstdV1(directory.resolve("v1.parquet"), 2_000);
    v2 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("v2.parquet"),
            2_000,
            Layout.flat(WriterVersion.PARQUET_2_0, 1_000, 100));
  }

  @AfterAll
  static void stop() {
    executor.shutdownNow();
  }

  @Test
  void dictionariesReadAgainAreFoundAndDecodeToTheSameRows() throws IOException {
    for (Path file : List.of(v1, v2)) {
      MemoryDecodedDictionaries kept = new MemoryDecodedDictionaries(DataSize.ofBytes(64 << 20));
      RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
      assertThat(read(file, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
      assertThat(kept.hits()).as("%s: first read", file.getFileName()).isZero();
      assertThat(kept.misses()).isEqualTo(DICTIONARY_PAGES);
      assertThat(kept.keptBytes()).isPositive();

      // Many reads of different rows over the same shared values: a reader writing into them
      // would change what the next read returns.
      Random random = new Random(7);
      int reads = 0;
      for (int round = 0; round < 20; round++) {
        RoaringBitmap some = randomRows(random, 2_000, 1 + random.nextInt(400));
        assertThat(read(file, some, kept))
            .as("%s, round %d", file.getFileName(), round)
            .isEqualTo(TestingRows.expected(some, COLUMNS));
        reads++;
      }
      assertThat(kept.misses()).as("%s: no dictionary decoded twice", file).isEqualTo(2);
      assertThat(kept.hits()).isPositive().isLessThanOrEqualTo((long) reads * DICTIONARY_PAGES);
    }
  }

  @Test
  void dictionariesAreNamedByTheirFile() throws IOException {
    MemoryDecodedDictionaries kept = new MemoryDecodedDictionaries(DataSize.ofBytes(64 << 20));
    RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
    read(v1, rows, kept);
    assertThat(read(v2, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    assertThat(kept.hits()).isZero();
    assertThat(kept.misses()).isEqualTo(2 * DICTIONARY_PAGES);
  }

  @Test
  void invalidateAllAndTheBoundDropThem() throws IOException {
    MemoryDecodedDictionaries kept = new MemoryDecodedDictionaries(DataSize.ofBytes(64 << 20));
    RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
    read(v1, rows, kept);
    kept.invalidateAll();
    assertThat(kept.keptBytes()).isZero();
    assertThat(read(v1, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    assertThat(kept.hits()).isZero();

    MemoryDecodedDictionaries tiny = new MemoryDecodedDictionaries(DataSize.ofBytes(100));
    for (int round = 0; round < 2; round++) {
      assertThat(read(v1, rows, tiny)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    }
    assertThat(tiny.keptBytes()).isZero();
    assertThat(tiny.hits()).isZero();
  }

  private static List<List<Object>> read(
      Path file, RoaringBitmap rows, MemoryDecodedDictionaries kept) throws IOException {
    ParquetFileReader reader =
        new ParquetFileReader(
            LocalObjectStore.unconfined(),
            executor,
            ReaderOptions.defaults(),
            DecompressedPages.NONE,
            kept);
    try (ParquetRead read = reader.start(request(file, COLUMNS, RowSelection.of(rows)))) {
      return TestingRows.rows(read.readAll());
    }
  }
}
