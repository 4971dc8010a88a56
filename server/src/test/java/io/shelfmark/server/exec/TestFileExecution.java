package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.exchange.error.QueryCancelledException;
import io.shelfmark.exchange.error.QueryTimeoutException;
import io.shelfmark.exchange.error.UnsupportedQueryException;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.PartialResult;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.read.PageLocationLoader;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.schema.ParquetSchema;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.server.exec.TestingLakeTables.TableFile;
import io.shelfmark.server.exec.TestingLakeTables.TestingTable;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.testing.oracle.QueryResult;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** Execution on the test lake: I/O statistics, segment-only answers, schema evolution, refusals. */
class TestFileExecution {
  private static List<FileTask> segmented(TestingEngine engine) {
    return engine.tasks().stream().filter(task -> task.segment().isPresent()).toList();
  }

  @Test
  void q1WithPinnedIndexesReadsNoParquetByte() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      List<FileTask> tasks = segmented(engine);
      ExecutionStatistics statistics = engine.partial(TestBenchmarkQueries.Q1, tasks).statistics();
      assertThat(statistics.docsScanned()).isGreaterThan(0);
      assertThat(statistics.parquetBytesRead()).isZero();
      assertThat(statistics.parquetRequests()).isZero();
      assertThat(statistics.filesAnsweredFromSegment()).isEqualTo(tasks.size());
      // The whole snapshot, unsegmented files included, still equals DuckDB.
      ResultComparison.assertEquivalent(
          lake.oracle.query(TestBenchmarkQueries.Q1),
          engine.query(TestBenchmarkQueries.Q1),
          true,
          0);
    }
  }

  @Test
  void groupByForwardIndexedColumnsIsAnsweredFromTheSegment() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      String sql =
          "SELECT metric, dimensions['service'] AS service, COUNT(*), COUNT(dimensions['service']) "
              + "FROM obs.metrics WHERE resolution = 15000 GROUP BY metric, dimensions['service']";
      ExecutionStatistics statistics = engine.partial(sql, segmented(engine)).statistics();
      assertThat(statistics.parquetBytesRead()).isZero();
      assertThat(statistics.filesAnsweredFromSegment()).isEqualTo(segmented(engine).size());
      ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 0);
    }
  }

  @Test
  void timeBucketsOfASortedColumnComeFromItsSortedIndex() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      // The generator writes each file sorted on the timestamp: its segment has a sorted index,
      // whose runs give each doc's value, so neither the buckets nor MIN/MAX read Parquet.
      List<FileTask> sorted =
          segmented(engine).stream()
              .filter(t -> t.segment().get().indexIds("logical_timestamp").contains("sorted"))
              .toList();
      assertThat(sorted).isNotEmpty();
      String sql =
          "SELECT dateTrunc('minute', logical_timestamp) AS bucket, COUNT(*),"
              + " MIN(logical_timestamp), MAX(logical_timestamp) FROM obs.metrics"
              + " WHERE resolution = 15000 GROUP BY dateTrunc('minute', logical_timestamp)"
              + " ORDER BY bucket";
      String duckDb =
          "SELECT (logical_timestamp // 60000) * 60000 AS bucket, COUNT(*),"
              + " MIN(logical_timestamp), MAX(logical_timestamp) FROM obs.metrics"
              + " WHERE resolution = 15000 GROUP BY (logical_timestamp // 60000) * 60000"
              + " ORDER BY bucket";
      ExecutionStatistics statistics = engine.partial(sql, sorted).statistics();
      assertThat(statistics.docsScanned()).isGreaterThan(0);
      assertThat(statistics.parquetBytesRead()).isZero();
      assertThat(statistics.filesAnsweredFromSegment()).isEqualTo(sorted.size());
      ResultComparison.assertEquivalent(lake.oracle.query(duckDb), engine.query(sql), true, 0);
      // Q3 reads only latest_rollup's pages: the buckets come from the sorted index.
      ResultComparison.assertEquivalent(
          lake.oracle.query(TestBenchmarkQueries.Q3_DUCKDB),
          engine.query(TestBenchmarkQueries.Q3),
          true,
          1e-9);
    }
  }

  @Test
  void dashboardTimeBucketsReadWhatDateTruncReads() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      // A filtered time range grouped by minute, as dateTrunc, as Grafana's DATETIMECONVERT and as
      // Superset's grain: each is answered from the segments' indexes with no Parquet byte read,
      // exactly as the dateTrunc form is, and gives its buckets.
      String where = " FROM obs.metrics WHERE resolution = 15000 AND logical_timestamp >= 0";
      String dateTrunc =
          "SELECT dateTrunc('minute', logical_timestamp) AS b, COUNT(*)"
              + where
              + " GROUP BY dateTrunc('minute', logical_timestamp)";
      String grafana =
          "SELECT DATETIMECONVERT(logical_timestamp, '1:MILLISECONDS:EPOCH',"
              + " '1:MILLISECONDS:EPOCH', '1:MINUTES') AS b, COUNT(*)"
              + where
              + " GROUP BY b";
      String grafanaFive =
          "SELECT DATETIMECONVERT(logical_timestamp, '1:MILLISECONDS:EPOCH',"
              + " '1:MILLISECONDS:EPOCH', '5:MINUTES') AS b, COUNT(*)"
              + where
              + " GROUP BY b";
      String superset =
          "SELECT CAST(DATE_TRUNC('minute', CAST(logical_timestamp AS TIMESTAMP)) AS TIMESTAMP)"
              + " AS b, COUNT(*)"
              + where
              + " GROUP BY CAST(DATE_TRUNC('minute', CAST(logical_timestamp AS TIMESTAMP)) AS"
              + " TIMESTAMP)";
      List<FileTask> segments = segmented(engine);
      ExecutionStatistics expected = engine.partial(dateTrunc, segments).statistics();
      assertThat(expected.parquetBytesRead()).isZero();
      assertThat(expected.filesAnsweredFromSegment()).isEqualTo(segments.size());
      for (String sql : List.of(grafana, grafanaFive, superset)) {
        ExecutionStatistics actual = engine.partial(sql, segments).statistics();
        assertThat(actual).as(sql).isEqualTo(expected);
      }
      String duckDbMinutes =
          "SELECT (logical_timestamp // 60000) * 60000 AS b, COUNT(*)" + where + " GROUP BY b";
      ResultComparison.assertEquivalent(
          lake.oracle.query(duckDbMinutes), engine.query(grafana), false, 0);
      ResultComparison.assertEquivalent(
          lake.oracle.query(
              "SELECT (logical_timestamp // 300000) * 300000 AS b, COUNT(*)"
                  + where
                  + " GROUP BY b"),
          engine.query(grafanaFive),
          false,
          0);
      ResultComparison.assertEquivalent(
          lake.oracle.query(
              "SELECT make_timestamp((logical_timestamp // 60000) * 60000000) AS b, COUNT(*)"
                  + where
                  + " GROUP BY b"),
          engine.query(superset),
          false,
          0);
    }
  }

  @Test
  void rowGroupsAggregatedOnTwoThreadsGiveOneThreadsGroupsInOrder() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      // Files of 2 to 8 row groups holding matching rows are split across threads.
      List<FileTask> split = new ArrayList<>();
      for (FileTask task : engine.tasks()) {
        ParquetFooter footer =
            FooterReader.withDefaults()
                .read(
                    lake.store, Location.parse(task.file().path()), task.file().fileSizeInBytes());
        if (footer.rowGroupCount() >= 2
            && footer.rowGroupCount() <= RowGroupAggregation.MAX_ROW_GROUPS) {
          split.add(task);
        }
      }
      assertThat(split).isNotEmpty();
      // No ORDER BY: the groups' order is the order the files' row groups gave them.
      String sql =
          "SELECT metric, dateTrunc('minute', logical_timestamp), COUNT(*), SUM(sum_rollup),"
              + " MAX(latest_rollup) FROM obs.metrics WHERE resolution = 15000"
              + " GROUP BY metric, dateTrunc('minute', logical_timestamp)";
      PartialResult pooled = engine.partial(sql, split);
      // A direct executor runs the helper at once, on this thread, before the query's own turn:
      // the helper takes every row group. The pool's helper usually takes the second.
      PartialResult direct = engine.partial(sql, split, Runnable::run);
      assertThat(pooled.groups()).isNotEmpty();
      assertThat(direct.groups()).isEqualTo(pooled.groups());
      assertThat(direct.statistics().docsScanned()).isEqualTo(pooled.statistics().docsScanned());
      assertThat(pooled.statistics().parquetBytesRead()).isPositive();
      // And the whole table, split files among the rest, equals DuckDB.
      String duckDb =
          sql.replace(
              "dateTrunc('minute', logical_timestamp)", "(logical_timestamp // 60000) * 60000");
      ResultComparison.assertEquivalent(lake.oracle.query(duckDb), engine.query(sql), false, 1e-9);
    }
  }

  @Test
  void q4ReadsOnlyThePagesHoldingItsMatchingRows() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    // The largest org's incident day: the needles' file (it also has deleted rows).
    TableFile needles = lake.metrics.files().get(1);
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      engine.readerOptions(ReaderOptions.builder().maxMergeDistance(DataSize.ofBytes(0)).build());
      FileTask task =
          engine.tasks().stream()
              .filter(t -> t.file().path().equals(needles.info().path()))
              .findFirst()
              .orElseThrow();
      assertThat(task.segment()).isPresent();
      ExecutionStatistics statistics =
          engine.partial(TestBenchmarkQueries.Q4, List.of(task)).statistics();

      // The bound from the file layout: the pages of the columns read holding a row still in play
      // after the indexes, plus the dictionary page of each chunk touched. dimensions['service']
      // comes from the segment's forward index. When the needle key has an exact index, only the
      // matching rows are in play and only sum_rollup is read; when the index builder gave it a
      // bloom filter (nearly unique keys), the rows matching every other term are candidates, and
      // the map's key and value pages are read for them to check dimensions['node'] = 'xyz'.
      String where =
          TestBenchmarkQueries.Q4_DUCKDB.substring(
              TestBenchmarkQueries.Q4_DUCKDB.indexOf("WHERE ") + 6,
              TestBenchmarkQueries.Q4_DUCKDB.indexOf(" GROUP BY"));
      boolean exactNeedle =
          task.segment().get().indexIds("dimensions['node']").stream()
              .anyMatch(id -> !id.equals("bloom"));
      List<String> columns = new ArrayList<>(List.of("sum_rollup"));
      if (!exactNeedle) {
        where = where.replace("AND dimensions['node'] = 'xyz' ", "");
        columns.addAll(List.of("dimensions.key_value.key", "dimensions.key_value.value"));
      }
      QueryResult rows =
          lake.oracle.query(
              "SELECT file_row_number FROM read_parquet('"
                  + needles.local()
                  + "', file_row_number = true) WHERE "
                  + where);
      Location location = Location.parse(needles.info().path());
      ParquetFooter footer =
          FooterReader.withDefaults().read(lake.store, location, needles.info().fileSizeInBytes());
      FilePageLocations pages =
          new PageLocationLoader(lake.store, lake.io, ReaderOptions.defaults())
              .load(location, footer);
      ParquetSchema schema = ParquetSchema.from(footer.schema());
      Set<String> pagesHit = new HashSet<>();
      long boundBytes = 0;
      for (List<Object> row : rows.rows()) {
        long position = (Long) row.get(0);
        if (needles.deleted().contains((int) position)) {
          continue;
        }
        int rowGroup = 0;
        while (footer.rowGroupFirstRow(rowGroup) + footer.rowGroupRowCount(rowGroup) <= position) {
          rowGroup++;
        }
        long inGroup = position - footer.rowGroupFirstRow(rowGroup);
        for (String name : columns) {
          int column = schema.column(name).index();
          ColumnChunkPages chunk = pages.find(rowGroup, column).orElseThrow();
          int page = 0;
          while (page + 1 < chunk.pageCount() && chunk.page(page + 1).firstRowIndex() <= inGroup) {
            page++;
          }
          if (pagesHit.add(rowGroup + "/" + column + "/" + page)) {
            boundBytes += chunk.page(page).compressedSize();
          }
          if (chunk.hasDictionaryPage() && pagesHit.add(rowGroup + "/" + column + "/dictionary")) {
            boundBytes += chunk.dictionarySize();
          }
        }
      }
      org.slf4j.LoggerFactory.getLogger(TestFileExecution.class)
          .info(
              "Q4 bound {} bytes {} rows {}; read {}",
              pagesHit,
              boundBytes,
              rows.rowCount(),
              statistics);
      assertThat(statistics.docsScanned()).isGreaterThan(0);
      assertThat(statistics.parquetPagesRead()).isBetween(1L, (long) pagesHit.size());
      assertThat(statistics.parquetBytesRead()).isBetween(1L, boundBytes);
      // One read, all its pages in one wave: at most one GET per page.
      assertThat(statistics.parquetRequests()).isLessThanOrEqualTo(pagesHit.size());
    }
  }

  @Test
  void columnsAreMatchedByFieldIdAcrossSchemaEvolution() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    // s (field 6) renamed to s_renamed; a new column s (field 99) the files do not hold.
    List<Types.NestedField> fields = new ArrayList<>();
    for (Types.NestedField field : TestingLakeTables.TYPES_SCHEMA.columns()) {
      fields.add(
          field.fieldId() == 6 ? Types.NestedField.optional(6, "s_renamed", field.type()) : field);
    }
    fields.add(Types.NestedField.optional(99, "s", Types.StringType.get()));
    Schema evolved = new Schema(fields);
    TestingTable table =
        new TestingTable(
            "test.types",
            evolved,
            IcebergSchemas.toBoundTable(TableName.of("test", "types"), evolved),
            lake.types.files());
    try (TestingEngine engine = new TestingEngine(lake, table, Mode.PINNED)) {
      assertThat(
              engine.query("SELECT COUNT(s), COUNT(added_later), COUNT(*) FROM test.types").rows())
          .containsExactly(List.of(0L, 0L, 7_310L));
      // The segments index a column named s: it is the old field and must not answer for the new.
      assertThat(engine.query("SELECT COUNT(*) FROM test.types WHERE s = 'v1'").rows())
          .containsExactly(List.of(0L));
      ResultComparison.assertEquivalent(
          lake.oracle.query(
              "SELECT s, COUNT(*) FROM test.types WHERE s LIKE 'v1%' OR s IS NULL GROUP BY s"),
          engine.query(
              "SELECT s_renamed, COUNT(*) FROM test.types "
                  + "WHERE s_renamed LIKE 'v1%' OR s_renamed IS NULL GROUP BY s_renamed"),
          false,
          0);
    }
  }

  @Test
  void decimalsFloatsBinaryAndTimesEqualDuckDb() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED_PAGES)) {
      for (String sql :
          List.of(
              "SELECT SUM(\"dec\"), MIN(\"dec\"), MAX(\"dec\"), AVG(\"dec\"), COUNT(DISTINCT \"dec\"), SUM(f), MIN(f), MAX(f) FROM test.types",
              "SELECT b, SUM(\"dec\") AS total, MAX(ts) AS latest, MIN(dt) AS first_day FROM test.types GROUP BY b ORDER BY b NULLS FIRST",
              "SELECT id, \"dec\", f, bin, ts, dt FROM test.types WHERE \"dec\" > 10 AND f < 2 ORDER BY id DESC LIMIT 7 OFFSET 2",
              "SELECT bin, COUNT(*) AS c FROM test.types GROUP BY bin",
              "SELECT \"dec\" * 2 + 1 AS x, i + l AS y FROM test.types WHERE \"dec\" BETWEEN -5 AND 5 ORDER BY id LIMIT 20",
              "SELECT m['k2'] AS k2, COUNT(*) AS c, COUNT(DISTINCT s) AS s FROM test.types WHERE m['k1'] IN ('a1', 'a3') GROUP BY m['k2'] ORDER BY k2 NULLS FIRST")) {
        ResultComparison.assertEquivalent(
            lake.oracle.query(sql), engine.query(sql), sql.contains("ORDER BY"), 1e-9);
      }
    }
  }

  @Test
  void limitWithoutOrderByReadsOnlyTheFilesAndRowsItKeeps() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.metrics, Mode.PINNED)) {
      assertThat(engine.tasks()).hasSizeGreaterThan(2);
      for (String where : List.of("", " WHERE resolution = 15000")) {
        String columns = "SELECT org_id, metric, sum_rollup FROM obs.metrics" + where;
        PartialResult everything = engine.partial(columns + " LIMIT 1000000000");
        PartialResult limited = engine.partial(columns + " LIMIT 3");
        // The rows a run over every file keeps first: the same with or without early stops.
        assertThat(limited.rows()).as(where).isEqualTo(everything.rows().subList(0, 3));
        assertThat(limited.statistics().filesQueried())
            .as("%s: files after the first ones holding 3 rows are not run", where)
            .isLessThan(engine.tasks().size());
        assertThat(limited.statistics().parquetBytesRead())
            .as("%s: only the pages of the kept rows are read", where)
            .isLessThan(everything.statistics().parquetBytesRead() / 2);
      }
    }
  }

  @Test
  void refusesWhatItCannotAnswer() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      // A whole map is read now (previews); its rendering is checked in TestMapPreview.
      assertThat(
              engine.finalResult("SELECT m FROM test.types ORDER BY id LIMIT 1").columnDataTypes())
          .containsExactly("MAP");
      // A segment of another file is refused rather than used for the wrong rows.
      FileTask first = engine.tasks().get(0);
      FileTask second = engine.tasks().get(1);
      FileTask swapped = new FileTask(first.file(), second.segment(), first.deletedPositions());
      assertThatThrownBy(() -> engine.partial("SELECT COUNT(*) FROM test.types", List.of(swapped)))
          .isInstanceOf(UnsupportedQueryException.class)
          .hasMessageStartingWith("Cannot use segment ")
          .hasMessageContaining(
              "for data file "
                  + first.file().path()
                  + " of "
                  + first.file().fileSizeInBytes()
                  + " bytes: it indexes "
                  + second.file().path());
    }
  }

  @Test
  void stopsWhenCancelledOrPastItsDeadline() throws IOException {
    TestingLakeTables lake = TestingLakeTables.shared();
    try (TestingEngine engine = new TestingEngine(lake, lake.types, Mode.PINNED)) {
      ExecutionContext base = engine.context();
      ExecutionContext cancelled =
          new ExecutionContext(
              base.dataStore(),
              base.fileExecutor(),
              base.ioExecutor(),
              base.tableSchema(),
              base.deadline(),
              () -> true,
              base.clock(),
              base.readerOptions());
      QueryExecutor executor = new QueryExecutor();
      assertThatThrownBy(
              () ->
                  executor.execute(
                      engine.plan("SELECT COUNT(*) FROM test.types"), engine.tasks(), cancelled))
          .isInstanceOf(QueryCancelledException.class)
          .hasMessage("Cannot finish the query: it was cancelled");
      Instant past = Instant.parse("2020-01-01T00:00:00Z");
      ExecutionContext late =
          new ExecutionContext(
              base.dataStore(),
              base.fileExecutor(),
              base.ioExecutor(),
              base.tableSchema(),
              past,
              () -> false,
              Clock.systemUTC(),
              base.readerOptions());
      assertThatThrownBy(
              () ->
                  executor.execute(
                      engine.plan("SELECT SUM(d) FROM test.types"), engine.tasks(), late))
          .isInstanceOf(QueryTimeoutException.class)
          .hasMessage(
              "Cannot finish the query: its deadline 2020-01-01T00:00:00Z has passed (raise the timeout or narrow the query)");
    }
  }
}
