package io.shelfmark.parquet.read;

import static io.shelfmark.parquet.read.TestParquetFileReader.randomRows;
import static io.shelfmark.parquet.read.TestParquetFileReader.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.metadata.TestingParquetFiles.Layout;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.local.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.format.ColumnChunk;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * {@link ParquetRead#decodeAhead}: other threads decode later row groups; order and errors hold.
 */
class TestDecodeAhead {
  private static final List<String> COLUMNS = List.of("id", "name", "score");

  @TempDir static Path directory;
  private static ExecutorService fetches;
  private static Path file;

  @BeforeAll
  static void writeFile() throws IOException {
    fetches = Executors.newFixedThreadPool(4);
    // 5 row groups of 600 rows, pages of 100 rows.
    file =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("five-row-groups.parquet"),
            3_000,
            Layout.flat(WriterVersion.PARQUET_1_0, 600, 100));
  }

  @AfterAll
  static void stop() {
    fetches.shutdownNow();
  }

  @Test
  void rowGroupsDecodedOnOtherThreadsComeOutInFileOrder() throws IOException {
    // Each task runs at once on a thread of its own, so every row group after the first is decoded
    // off the consumer's thread before the consumer asks for it.
    Set<String> decodingThreads = ConcurrentHashMap.newKeySet();
    Executor ownThread =
        task -> {
          Thread thread =
              new Thread(
                  () -> {
                    decodingThreads.add(Thread.currentThread().getName());
                    task.run();
                  },
                  "ahead-" + System.nanoTime());
          thread.start();
          try {
            thread.join();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        };
    Random random = new Random(11);
    for (int round = 0; round < 5; round++) {
      RoaringBitmap rows = randomRows(random, 3_000, 1 + random.nextInt(300));
      List<RowGroupBatch> batches = readAhead(rows, ownThread, 3);
      assertThat(batches)
          .extracting(RowGroupBatch::rowGroup)
          .as("round %d", round)
          .isSorted()
          .doesNotHaveDuplicates();
      assertThat(TestingRows.rows(batches))
          .as("round %d, rows %s", round, rows)
          .isEqualTo(TestingRows.expected(rows, COLUMNS));
    }
    assertThat(decodingThreads).isNotEmpty();
  }

  @Test
  void consumerDecodesWhatNoExecutorThreadStarts() throws IOException {
    RoaringBitmap rows = TestParquetFileReader.range(0, 3_000);
    List<Runnable> neverRun = new ArrayList<>();
    Executor rejecting =
        task -> {
          throw new RejectedExecutionException("saturated");
        };
    AtomicInteger queued = new AtomicInteger();
    Executor queueing =
        task -> {
          queued.incrementAndGet();
          neverRun.add(task);
        };
    List<List<Object>> expected = TestingRows.expected(rows, COLUMNS);

    assertThat(TestingRows.rows(readAhead(rows, rejecting, 4))).isEqualTo(expected);
    assertThat(TestingRows.rows(readAhead(rows, queueing, 4))).isEqualTo(expected);
    // Row groups 1..4 were handed to the executor; the consumer decoded them all itself.
    assertThat(queued.get()).isEqualTo(4);
    // A task that runs once the read is over (its row group claimed by the consumer) does nothing.
    neverRun.forEach(Runnable::run);
  }

  @Test
  void failureOfARowGroupDecodedAheadSurfacesWhenTheConsumerReachesIt() throws IOException {
    Path corrupt = corruptPageHeader(1, directory.resolve("corrupt-row-group-1.parquet"));
    RoaringBitmap rows = TestParquetFileReader.range(0, 3_000);
    ParquetFileReader reader =
        new ParquetFileReader(LocalObjectStore.unconfined(), fetches, ReaderOptions.defaults());
    Throwable sequential;
    try (ParquetRead read = reader.start(request(corrupt, COLUMNS, RowSelection.of(rows)))) {
      read.next();
      sequential = catchNext(read);
    }
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try (ParquetRead read = reader.start(request(corrupt, COLUMNS, RowSelection.of(rows)))) {
      read.decodeAhead(threads, 3);
      // Row group 0 is fine, whoever decodes row group 1 meanwhile.
      assertThat(read.next().rowGroup()).isEqualTo(0);
      assertThatThrownBy(read::next)
          .isInstanceOf(CorruptParquetException.class)
          .hasMessage(sequential.getMessage());
    } finally {
      threads.shutdownNow();
    }
    assertThat(sequential)
        .isInstanceOfSatisfying(
            CorruptParquetException.class, e -> assertThat(e.rowGroup()).isEqualTo(1));
  }

  @Test
  void rejectsFewerThanOneRowGroupAtOnce() throws IOException {
    ParquetFileReader reader =
        new ParquetFileReader(LocalObjectStore.unconfined(), fetches, ReaderOptions.defaults());
    try (ParquetRead read = reader.start(request(file, COLUMNS, RowSelection.all()))) {
      assertThatThrownBy(() -> read.decodeAhead(fetches, 0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("Cannot decode 0 row groups at once (at least one)");
    }
  }

  private static List<RowGroupBatch> readAhead(RoaringBitmap rows, Executor executor, int ahead)
      throws IOException {
    ParquetFileReader reader =
        new ParquetFileReader(LocalObjectStore.unconfined(), fetches, ReaderOptions.defaults());
    try (ParquetRead read = reader.start(request(file, COLUMNS, RowSelection.of(rows)))) {
      read.decodeAhead(executor, ahead);
      return read.readAll();
    }
  }

  private static Throwable catchNext(ParquetRead read) {
    try {
      read.next();
    } catch (IOException | RuntimeException e) {
      return e;
    }
    throw new AssertionError("the corrupt row group decoded without an error");
  }

  /** A copy of the file whose first page header of {@code id} in {@code rowGroup} is garbage. */
  private static Path corruptPageHeader(int rowGroup, Path target) throws IOException {
    ColumnChunk chunk =
        TestingParquetFiles.readFooter(file).getRow_groups().get(rowGroup).getColumns().get(0);
    byte[] bytes = Files.readAllBytes(file);
    int offset = (int) chunk.getMeta_data().getData_page_offset();
    for (int i = 0; i < 8; i++) {
      bytes[offset + i] = (byte) 0xFF;
    }
    Files.write(target, bytes);
    return target;
  }
}
