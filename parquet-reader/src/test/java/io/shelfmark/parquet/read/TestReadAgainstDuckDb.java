package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.metadata.TestingParquetFiles.Layout;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.local.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.roaringbitmap.RoaringBitmap;

/**
 * End to end against an independent reader: random row selections over multi-row-group, multi-page
 * files return exactly what DuckDB returns for {@code WHERE file_row_number IN (...)}. Files come
 * from parquet-java (data page v1 and v2, with OffsetIndex), the same with the page index stripped
 * (header walk), and DuckDB's own writer (no page index, large pages).
 */
class TestReadAgainstDuckDb {
  private static final List<String> COLUMNS = List.of("id", "name", "score");

  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Connection duckDb;

  @BeforeAll
  static void start() throws SQLException {
    executor = Executors.newFixedThreadPool(4);
    duckDb = TestingParquetFiles.duckDb();
  }

  @AfterAll
  static void stop() throws SQLException {
    executor.shutdownNow();
    duckDb.close();
  }

  static Stream<Arguments> files() throws IOException {
    Path v1 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("parquet-java-v1.parquet"),
            5_000,
            new Layout(
                TestingParquetFiles.FLAT,
                WriterVersion.PARQUET_1_0,
                1_300,
                128,
                CompressionCodecName.ZSTD));
    Path v2 =
        TestingParquetFiles.writeParquetJava(
            directory.resolve("parquet-java-v2.parquet"),
            5_000,
            new Layout(
                TestingParquetFiles.FLAT,
                WriterVersion.PARQUET_2_0,
                1_300,
                128,
                CompressionCodecName.SNAPPY));
    Path stripped =
        TestingParquetFiles.stripPageIndex(
            v2, directory.resolve("parquet-java-v2-no-index.parquet"));
    Path duck =
        TestingParquetFiles.writeDuckDb(directory.resolve("duckdb.parquet"), 30_000, 10_240);
    return Stream.of(
        Arguments.of("parquet-java v1 zstd", v1, 5_000),
        Arguments.of("parquet-java v2 snappy", v2, 5_000),
        Arguments.of("parquet-java v2 without page index", stripped, 5_000),
        Arguments.of("duckdb", duck, 30_000));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("files")
  void randomSelectionsEqualDuckDb(String name, Path file, int rowCount)
      throws IOException, SQLException {
    Random random = new Random(name.hashCode());
    List<RoaringBitmap> selections = new ArrayList<>();
    selections.add(TestParquetFileReader.randomRows(random, rowCount, 1));
    selections.add(TestParquetFileReader.randomRows(random, rowCount, 25));
    selections.add(TestParquetFileReader.randomRows(random, rowCount, rowCount / 100));
    selections.add(TestParquetFileReader.randomRows(random, rowCount, rowCount / 4));
    int from = random.nextInt(rowCount - 500);
    selections.add(TestParquetFileReader.range(from, from + 500));
    ParquetFileReader reader =
        new ParquetFileReader(LocalObjectStore.unconfined(), executor, ReaderOptions.defaults());
    for (RoaringBitmap rows : selections) {
      List<List<Object>> actual;
      try (ParquetRead read =
          reader.start(TestParquetFileReader.request(file, COLUMNS, RowSelection.of(rows)))) {
        actual = TestingRows.rows(read.readAll());
      }
      assertThat(actual)
          .as("%s, %d selected rows", name, rows.getCardinality())
          .isEqualTo(duckDbRows(file, rows));
    }
  }

  private static List<List<Object>> duckDbRows(Path file, RoaringBitmap rows) throws SQLException {
    StringJoiner ordinals = new StringJoiner(", ", "(", ")");
    for (int row : rows) {
      ordinals.add(Integer.toString(row));
    }
    String sql =
        "SELECT file_row_number, id, name, score FROM read_parquet('%s', file_row_number = true)"
                .formatted(file)
            + " WHERE file_row_number IN "
            + ordinals
            + " ORDER BY file_row_number";
    List<List<Object>> result = new ArrayList<>();
    try (Statement statement = duckDb.createStatement();
        ResultSet rowsRead = statement.executeQuery(sql)) {
      while (rowsRead.next()) {
        List<Object> row = new ArrayList<>();
        row.add(rowsRead.getLong(1));
        row.add(rowsRead.getLong(2));
        row.add(rowsRead.getString(3));
        row.add(rowsRead.getDouble(4));
        result.add(row);
      }
    }
    return result;
  }
}
