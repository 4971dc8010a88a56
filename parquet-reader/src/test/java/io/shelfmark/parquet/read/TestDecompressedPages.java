package io.shelfmark.parquet.read;

import static io.shelfmark.parquet.read.TestParquetFileReader.randomRows;
import static io.shelfmark.parquet.read.TestParquetFileReader.request;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.decode.MemoryDecompressedPages;
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
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/** Decompressed data pages kept across reads: found again, shared unharmed, bounded. */
class TestDecompressedPages {
  private static final List<String> COLUMNS = List.of("id", "name", "score");

  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Path v1;
  private static Path v2;

  @BeforeAll
  static void writeFiles() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    // 2 row groups of 1000 rows, pages of 100 rows: 20 data pages per column.
    v1 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("v1.parquet"),
            2_000,
            new Layout(
                TestingParquetFiles.FLAT,
                WriterVersion.PARQUET_1_0,
                1_000,
                100,
                CompressionCodecName.ZSTD));
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
  void pagesReadAgainAreFoundAndDecodeToTheSameRows() throws IOException {
    for (Path file : List.of(v1, v2)) {
      MemoryDecompressedPages kept = new MemoryDecompressedPages(DataSize.ofBytes(64 << 20));
      RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);

      assertThat(read(file, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
      long missesOfFirstRead = kept.misses();
      assertThat(kept.hits()).as("%s: first read", file.getFileName()).isZero();
      assertThat(missesOfFirstRead).as("%s: one miss per data page", file).isEqualTo(60);
      assertThat(kept.keptBytes()).isPositive();

      // Many reads of different rows over the same shared bodies: a decoder writing into a body
      // would change what the next read decodes.
      Random random = new Random(5);
      for (int round = 0; round < 20; round++) {
        RoaringBitmap some = randomRows(random, 2_000, 1 + random.nextInt(400));
        assertThat(read(file, some, kept))
            .as("%s, round %d", file.getFileName(), round)
            .isEqualTo(TestingRows.expected(some, COLUMNS));
      }
      assertThat(read(file, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
      assertThat(kept.misses()).as("%s: no page decompressed twice", file).isEqualTo(60);
      assertThat(kept.hits()).isPositive();
    }
  }

  @Test
  void pagesAreNamedByTheirFile() throws IOException {
    MemoryDecompressedPages kept = new MemoryDecompressedPages(DataSize.ofBytes(64 << 20));
    RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
    read(v1, rows, kept);
    // Another file with pages at other offsets and codecs: none of v1's bodies is taken for it.
    assertThat(read(v2, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    assertThat(kept.hits()).isZero();
  }

  @Test
  void invalidateAllDropsEveryBody() throws IOException {
    MemoryDecompressedPages kept = new MemoryDecompressedPages(DataSize.ofBytes(64 << 20));
    RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
    read(v1, rows, kept);
    kept.invalidateAll();
    assertThat(kept.keptBytes()).isZero();
    assertThat(read(v1, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    assertThat(kept.hits()).isZero();
    assertThat(kept.misses()).isEqualTo(120);
  }

  @Test
  void keepsNoMoreThanItsBound() throws IOException {
    MemoryDecompressedPages kept = new MemoryDecompressedPages(DataSize.ofBytes(2_000));
    RoaringBitmap rows = TestParquetFileReader.range(0, 2_000);
    for (int round = 0; round < 2; round++) {
      assertThat(read(v1, rows, kept)).isEqualTo(TestingRows.expected(rows, COLUMNS));
    }
    assertThat(kept.keptBytes()).isLessThanOrEqualTo(2_000);
  }

  private static List<List<Object>> read(
      Path file, RoaringBitmap rows, MemoryDecompressedPages kept) throws IOException {
    ParquetFileReader reader =
        new ParquetFileReader(
            LocalObjectStore.unconfined(), executor, ReaderOptions.defaults(), kept);
    try (ParquetRead read = reader.start(request(file, COLUMNS, RowSelection.of(rows)))) {
      return TestingRows.rows(read.readAll());
    }
  }
}
