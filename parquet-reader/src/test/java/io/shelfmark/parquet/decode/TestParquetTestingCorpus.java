package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.roaringbitmap.RoaringBitmap;

/**
 * Every valid file of the parquet-testing corpus whose features the reader supports decodes to the
 * values DuckDB reads from it: for all rows, and for a seeded random selection of rows per row
 * group (which exercises skipping inside pages and skipping whole pages).
 */
class TestParquetTestingCorpus {
  static final Path DATA = io.shelfmark.parquet.ParquetTestingFiles.DATA;

  /** Files left out, each with the reason; every other *.parquet file under data/ is compared. */
  static final Map<String, String> NOT_COMPARED =
      Map.of(
          "datapage_v1-corrupt-checksum.parquet",
          "page CRCs mismatch by design: TestCorruptCorpus expects the checksum error",
          "rle-dict-uncompressed-corrupt-checksum.parquet",
          "page CRCs mismatch by design: TestCorruptCorpus expects the checksum error",
          "nation.dict-malformed.parquet",
          "chunk sizes leave out the dictionary page header: TestCorruptCorpus expects the error",
          "large_string_map.brotli.parquet",
          "1 GiB pages, over the page size limit: TestCorruptCorpus expects the refusal",
          "byte_stream_split_extended.gzip.parquet",
          "DuckDB cannot read BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY: TestCorpusTwins compares each column with its PLAIN twin",
          "map_no_value.parquet",
          "DuckDB refuses a MAP without values: TestCorpusTwins compares the keys with the LIST twin column");

  private static TestingDuckDbOracle duckDb;

  @BeforeAll
  static void startDuckDb() throws Exception {
    duckDb = new TestingDuckDbOracle();
  }

  @AfterAll
  static void stopDuckDb() throws Exception {
    duckDb.close();
  }

  static Stream<String> files() throws IOException {
    try (Stream<Path> paths = Files.walk(DATA)) {
      return paths
          .filter(path -> path.getFileName().toString().endsWith(".parquet"))
          .map(path -> DATA.relativize(path).toString())
          .filter(name -> !NOT_COMPARED.containsKey(name))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("files")
  void allRowsEqualDuckDb(String name) throws Exception {
    Path file = DATA.resolve(name);
    TestingLocalParquetReader reader = TestingLocalParquetReader.open(file);
    for (ColumnSchema column : reader.schema().columns()) {
      List<Object> expected = duckDb.column(file, reader.footer().getSchema(), column);
      List<Object> actual = new ArrayList<>();
      for (int rowGroup = 0; rowGroup < reader.rowGroups(); rowGroup++) {
        ColumnBatch batch = reader.read(rowGroup, column.index());
        assertThat(batch.rowCount()).isEqualTo(reader.rowCount(rowGroup));
        actual.addAll(TestingCanonicalValues.rows(batch));
      }
      assertSameRows(name, column, expected, actual, null);
    }
  }

  /**
   * The same comparison through the whole reader (footer, page locations, planning, coalesced range
   * reads): a seeded random selection over the file, one batch per row group read.
   */
  @ParameterizedTest
  @MethodSource("files")
  void fileReaderEqualsDuckDb(String name) throws Exception {
    Path file = DATA.resolve(name);
    TestingLocalParquetReader local = TestingLocalParquetReader.open(file);
    // Summed from the row groups: one corpus file's footer says 0 rows (a known writer bug).
    long fileRows = 0;
    for (int rowGroup = 0; rowGroup < local.rowGroups(); rowGroup++) {
      fileRows += local.rowCount(rowGroup);
    }
    Random random = new Random(31L * name.hashCode());
    int[] rows = randomRows(random, (int) fileRows);
    RoaringBitmap bitmap = RoaringBitmap.bitmapOf(rows);
    List<RowGroupBatch> batches = TestingFileReads.read(file, RowSelection.of(bitmap));
    for (ColumnSchema column : local.schema().columns()) {
      List<Object> all = duckDb.column(file, local.footer().getSchema(), column);
      List<Object> expected = new ArrayList<>();
      List<Long> ordinals = new ArrayList<>();
      for (int row : rows) {
        expected.add(all.get(row));
        ordinals.add((long) row);
      }
      List<Object> actual = new ArrayList<>();
      for (RowGroupBatch batch : batches) {
        actual.addAll(TestingCanonicalValues.rows(batch.column(column.dottedPath())));
      }
      assertSameRows(name, column, expected, actual, ordinals);
    }
  }

  /** About a tenth of the rows, as single rows and short runs, always including the last. */
  static int[] randomRows(Random random, int rowCount) {
    List<Integer> rows = new ArrayList<>();
    int row = random.nextInt(Math.max(1, Math.min(rowCount, 20)));
    while (row < rowCount) {
      int run = 1 + random.nextInt(4);
      for (int i = 0; i < run && row < rowCount; i++) {
        rows.add(row++);
      }
      row += 1 + random.nextInt(20);
    }
    if (rowCount > 0 && (rows.isEmpty() || rows.getLast() != rowCount - 1)) {
      rows.add(rowCount - 1);
    }
    return rows.stream().mapToInt(Integer::intValue).toArray();
  }

  static void assertSameRows(
      String file,
      ColumnSchema column,
      List<Object> expected,
      List<Object> actual,
      List<Long> ordinals) {
    assertThat(actual.size())
        .as("rows of %s column %s", file, column.dottedPath())
        .isEqualTo(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      if (!Objects.equals(expected.get(i), actual.get(i))) {
        fail(
            "%s column %s (%s) row %d: DuckDB reads %s but the decoder gives %s"
                .formatted(
                    file,
                    column.dottedPath(),
                    column,
                    ordinals == null ? i : ordinals.get(i),
                    expected.get(i),
                    actual.get(i)));
      }
    }
  }
}
