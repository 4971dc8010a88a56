package io.shelfmark.parquet.decode;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.schema.ColumnSchema;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Corpus files DuckDB cannot read, checked against twin columns the files carry for this purpose
 * (see the corpus README): each encoded column must equal its plainly encoded twin, which the
 * DuckDB comparison covers where DuckDB can read it.
 */
class TestCorpusTwins {
  private static final Path DATA = TestParquetTestingCorpus.DATA;

  /** Seven pairs of columns: PLAIN and BYTE_STREAM_SPLIT, same values, all physical types. */
  @Test
  void byteStreamSplitColumnsEqualTheirPlainTwins() throws Exception {
    TestingLocalParquetReader reader =
        TestingLocalParquetReader.open(DATA.resolve("byte_stream_split_extended.gzip.parquet"));
    List<ColumnSchema> columns = reader.schema().columns();
    assertThat(columns).hasSize(14);
    for (int pair = 0; pair < 7; pair++) {
      ColumnSchema plain = columns.get(2 * pair);
      ColumnSchema split = columns.get(2 * pair + 1);
      assertThat(plain.dottedPath()).endsWith("_plain");
      assertThat(split.dottedPath()).endsWith("_byte_stream_split");
      List<Object> plainRows = TestingCanonicalValues.rows(reader.read(0, plain.index()));
      List<Object> splitRows = TestingCanonicalValues.rows(reader.read(0, split.index()));
      assertThat(splitRows).as(split.dottedPath()).hasSize(200).isEqualTo(plainRows);
      int[] rows = TestParquetTestingCorpus.randomRows(new java.util.Random(pair), 200);
      List<Object> selected =
          TestingCanonicalValues.rows(
              reader.read(0, split.index(), RowSelection.InRowGroup.of(200, rows)));
      for (int i = 0; i < rows.length; i++) {
        assertThat(selected.get(i))
            .as("%s row %d", split.dottedPath(), rows[i])
            .isEqualTo(plainRows.get(rows[i]));
      }
    }
  }

  /**
   * A MAP with INT32 keys and no value column, next to a LIST of the same values as the keys
   * (map_no_value.md): the keys, read as lists per row, equal the list column.
   */
  @Test
  void mapKeysWithoutValuesEqualTheListTwin() throws Exception {
    TestingLocalParquetReader reader =
        TestingLocalParquetReader.open(DATA.resolve("map_no_value.parquet"));
    ColumnSchema keys = null;
    ColumnSchema list = null;
    for (ColumnSchema column : reader.schema().columns()) {
      if (column.dottedPath().equals("my_map_no_v.key_value.key")) {
        keys = column;
      }
      if (column.dottedPath().equals("my_list.list.element")) {
        list = column;
      }
    }
    assertThat(keys).as("columns %s", reader.schema().columns()).isNotNull();
    assertThat(list).isNotNull();
    ColumnBatch keyBatch = reader.read(0, keys.index());
    List<Object> keyRows = TestingCanonicalValues.rows(keyBatch);
    List<Object> listRows = TestingCanonicalValues.rows(reader.read(0, list.index()));
    assertThat(keyRows).isEqualTo(listRows);
    assertThat(keyRows)
        .hasSize((int) reader.rowCount(0))
        .anyMatch(row -> row instanceof List<?> values && !values.isEmpty());
  }
}
