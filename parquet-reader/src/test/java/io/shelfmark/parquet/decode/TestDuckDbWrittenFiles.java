package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files DuckDB writes, in every codec it offers, with format V1 (two codecs) (PLAIN and dictionary)
 * and V2 (DELTA_*, BYTE_STREAM_SPLIT; DuckDB keeps v1 page headers for both): nulls in every
 * column, empty and null lists, null list elements, maps, structs, nested lists and the common
 * logical types. Each decodes, all rows and a random selection, to what DuckDB reads back.
 */
class TestDuckDbWrittenFiles {
  /** About 3% nulls everywhere; strings repeat so dictionaries form; lists vary in length. */
  private static final String TABLE =
      """
      SELECT
        CASE WHEN i % 31 = 0 THEN NULL ELSE i::INTEGER END AS int_col,
        CASE WHEN i % 29 = 0 THEN NULL ELSE i * 1000003 - 7000000000 END AS bigint_col,
        CASE WHEN i % 23 = 0 THEN NULL ELSE (i / 7.0)::FLOAT END AS float_col,
        CASE WHEN i % 19 = 0 THEN NULL ELSE i / 3.0 END AS double_col,
        CASE WHEN i % 17 = 0 THEN NULL ELSE 'name-' || (i % 50) END AS low_cardinality,
        CASE WHEN i % 13 = 0 THEN NULL ELSE md5(i::VARCHAR) END AS high_cardinality,
        CASE WHEN i % 11 = 0 THEN NULL ELSE i % 3 = 0 END AS bool_col,
        CASE WHEN i % 37 = 0 THEN NULL ELSE DATE '2020-01-01' + (i % 1000)::INTEGER END AS date_col,
        CASE WHEN i % 41 = 0 THEN NULL ELSE TIMESTAMP '2025-08-02 00:00:00' + to_microseconds(i * 1234567) END AS ts_col,
        CASE WHEN i % 43 = 0 THEN NULL ELSE (i * 1.25)::DECIMAL(9, 2) END AS dec9,
        CASE WHEN i % 47 = 0 THEN NULL ELSE (i * 3.125)::DECIMAL(18, 3) END AS dec18,
        CASE WHEN i % 53 = 0 THEN NULL ELSE (i * 7.5)::DECIMAL(38, 10) END AS dec38,
        CASE WHEN i % 59 = 0 THEN NULL ELSE (i % 200)::UTINYINT END AS utinyint_col,
        CASE WHEN i % 61 = 0 THEN NULL ELSE ('x' || i)::BLOB END AS blob_col,
        CASE WHEN i % 67 = 0 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS uuid_col,
        CASE WHEN i % 5 = 0 THEN NULL WHEN i % 5 = 1 THEN [] ELSE [i, NULL, i + 1][1:(i % 4)] END AS int_list,
        CASE WHEN i % 7 = 0 THEN NULL ELSE MAP {'service': 'svc-' || (i % 5), 'node': 'n' || i} END AS string_map,
        CASE WHEN i % 9 = 0 THEN NULL ELSE {'a': i, 'b': CASE WHEN i % 2 = 0 THEN NULL ELSE 'b' || i END} END AS struct_col,
        CASE WHEN i % 6 = 0 THEN NULL ELSE [['p' || i, NULL], [], NULL] END AS nested_list
      FROM range(2500) t(i)
      """;

  @TempDir static Path directory;
  private static TestingDuckDbOracle duckDb;

  @BeforeAll
  static void start() throws Exception {
    duckDb = new TestingDuckDbOracle();
  }

  @AfterAll
  static void stop() throws Exception {
    duckDb.close();
  }

  static Stream<Arguments> variants() {
    // Every codec with V2 (the richer encodings); V1's PLAIN and dictionary pages with two codecs.
    List<Arguments> variants = new ArrayList<>();
    for (String codec : List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli")) {
      variants.add(Arguments.of(codec, "V2"));
    }
    variants.add(Arguments.of("uncompressed", "V1"));
    variants.add(Arguments.of("snappy", "V1"));
    return variants.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("variants")
  void decodesLikeDuckDbReads(String codec, String version) throws Exception {
    Path file = directory.resolve("duckdb-%s-%s.parquet".formatted(codec, version));
    duckDb.execute(
        "COPY (%s) TO '%s' (FORMAT parquet, COMPRESSION %s, PARQUET_VERSION %s, ROW_GROUP_SIZE 2048)"
            .formatted(TABLE, file, codec, version));
    TestingLocalParquetReader reader = TestingLocalParquetReader.open(file);
    assertThat(reader.rowGroups()).isGreaterThan(1);
    Random random = new Random(codec.hashCode() * 31 + version.hashCode());
    for (ColumnSchema column : reader.schema().columns()) {
      List<Object> expected = duckDb.column(file, reader.footer().getSchema(), column);
      List<Object> all = new ArrayList<>();
      List<Object> selectedActual = new ArrayList<>();
      List<Object> selectedExpected = new ArrayList<>();
      List<Long> ordinals = new ArrayList<>();
      long firstRow = 0;
      for (int rowGroup = 0; rowGroup < reader.rowGroups(); rowGroup++) {
        int rowCount = (int) reader.rowCount(rowGroup);
        all.addAll(TestingCanonicalValues.rows(reader.read(rowGroup, column.index())));
        int[] rows = TestParquetTestingCorpus.randomRows(random, rowCount);
        ColumnBatch some =
            reader.read(rowGroup, column.index(), RowSelection.InRowGroup.of(rowCount, rows));
        selectedActual.addAll(TestingCanonicalValues.rows(some));
        for (int row : rows) {
          selectedExpected.add(expected.get((int) (firstRow + row)));
          ordinals.add(firstRow + row);
        }
        firstRow += rowCount;
      }
      String name = file.getFileName().toString();
      TestParquetTestingCorpus.assertSameRows(name, column, expected, all, null);
      TestParquetTestingCorpus.assertSameRows(
          name, column, selectedExpected, selectedActual, ordinals);
    }
  }
}
