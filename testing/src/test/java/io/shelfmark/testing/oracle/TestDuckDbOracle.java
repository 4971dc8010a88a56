package io.shelfmark.testing.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDuckDbOracle {
  @TempDir static Path directory;

  private static DuckDbOracle oracle;
  private static Path first;
  private static Path second;

  @BeforeAll
  static void writeFiles() {
    oracle = DuckDbOracle.open();
    first = directory.resolve("first.parquet");
    second = directory.resolve("second.parquet");
    // Two files of ten rows each: id 0..9 and 10..19.
    for (int file = 0; file < 2; file++) {
      oracle.execute(
          "COPY (SELECT (i + "
              + file * 10
              + ")::BIGINT AS id, (i % 3)::INTEGER AS small, (i * 0.5)::DOUBLE AS half,"
              + " 'name' || (i % 2) AS name, DATE '2025-08-02' + i::INTEGER AS day,"
              + " TIMESTAMP '2025-08-02 10:00:00' + INTERVAL (i) MINUTE AS ts,"
              + " MAP {'service': 's' || (i % 2)} AS dims"
              + " FROM range(10) t(i)) TO '"
              + (file == 0 ? first : second)
              + "' (FORMAT parquet)");
    }
  }

  @AfterAll
  static void close() {
    oracle.close();
  }

  @Test
  void viewOverFilesUnderTheTableName() {
    oracle.registerTable("obs.metrics", List.of(first, second));

    QueryResult result = oracle.query("SELECT COUNT(*) AS n, SUM(id) AS total FROM obs.metrics");

    assertThat(result.columns()).containsExactly("n", "total");
    // SUM of BIGINT is a HUGEINT in DuckDB: normalised to a long.
    assertThat(result.rows()).containsExactly(List.of(20L, 190L));
  }

  @Test
  void partitionDirectoriesInPathsDoNotChangeColumns() throws Exception {
    // Iceberg lays files out as <column>=<value>/: the file's own values must win, no column added.
    java.nio.file.Path partitioned = directory.resolve("small=7/name=other/data.parquet");
    java.nio.file.Files.createDirectories(partitioned.getParent());
    java.nio.file.Files.copy(first, partitioned);
    oracle.registerTable("hive.check", List.of(partitioned));

    QueryResult result = oracle.query("SELECT * FROM hive.check ORDER BY id LIMIT 1");

    assertThat(result.columns())
        .containsExactly("id", "small", "half", "name", "day", "ts", "dims");
    assertThat(result.rows().getFirst().subList(0, 2)).containsExactly(0L, 0L);
    assertThat(result.rows().getFirst().get(3)).isEqualTo("name0");
  }

  @Test
  void valuesAreNormalised() {
    oracle.registerTable("typed", List.of(first));

    QueryResult result =
        oracle.query(
            "SELECT small, half, name, day, ts, dims, dims['service'] AS service, id > 3 AS big,"
                + " CAST(1.25 AS DECIMAL(5, 2)) AS decimal, CAST(0.5 AS FLOAT) AS single,"
                + " [small, small] AS pair, NULL AS nothing"
                + " FROM typed WHERE id = 1");

    assertThat(result.rows())
        .containsExactly(
            Arrays.asList(
                1L,
                0.5,
                "name1",
                LocalDate.of(2025, 8, 3),
                LocalDateTime.of(2025, 8, 2, 10, 1),
                Map.of("service", "s1"),
                "s1",
                false,
                1.25,
                0.5,
                List.of(1L, 1L),
                null));
  }

  @Test
  void positionDeletesRemoveTheirRows() {
    oracle.registerTable(
        "obs.deleted",
        List.of(first, second),
        List.of(
            new PositionDelete(first, 0),
            new PositionDelete(first, 9),
            new PositionDelete(directory.resolve("./second.parquet"), 4)));

    QueryResult result = oracle.query("SELECT id FROM obs.deleted ORDER BY id");

    assertThat(result.columns()).containsExactly("id");
    assertThat(result.rowCount()).isEqualTo(17);
    assertThat(result.rows()).doesNotContain(List.of(0L), List.of(9L), List.of(14L));
    assertThat(result.rows()).contains(List.of(1L), List.of(10L), List.of(19L));
    // Re-registering without deletes brings the rows back.
    oracle.registerTable("obs.deleted", List.of(first, second));
    assertThat(oracle.query("SELECT COUNT(*) FROM obs.deleted").rows())
        .containsExactly(List.of(20L));
  }

  @Test
  void badRegistrationsNameTheProblem() {
    assertThatThrownBy(() -> oracle.registerTable("a.b.c", List.of(first)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot register table: a.b.c is not a name of the form table or schema.table"
                + " (letters, digits, underscores)");
    Path missing = directory.resolve("missing.parquet");
    assertThatThrownBy(() -> oracle.registerTable("t", List.of(missing)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot register table t: "
                + missing
                + " does not exist (write the Parquet file first)");
    assertThatThrownBy(() -> oracle.registerTable("t", List.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot register table t: no data files (give at least one)");
    assertThatThrownBy(
            () -> oracle.registerTable("t", List.of(first), List.of(new PositionDelete(second, 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot register table t: a position delete names "
                + second
                + ", which is not one of its 1 files (delete rows of the table's own files)");
    assertThatThrownBy(() -> new PositionDelete(first, -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Cannot delete row -1 of " + first + ": positions start at 0");
  }

  @Test
  void failedQueryNamesTheQuery() {
    assertThatThrownBy(() -> oracle.query("SELECT nope FROM no_such_table"))
        .isInstanceOf(OracleException.class)
        .hasMessageStartingWith("Cannot run query on DuckDB: ")
        .hasMessageContaining("no_such_table")
        .hasMessageEndingWith("(query: SELECT nope FROM no_such_table)");
  }
}
