package io.shelfmark.server.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.exchange.result.ExecutionStatistics;
import io.shelfmark.exchange.result.FinalResult;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageStatistics;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.server.exec.TestingEngine.Mode;
import io.shelfmark.server.exec.TestingLakeTables.TableFile;
import io.shelfmark.server.exec.TestingLakeTables.TestingTable;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.testing.oracle.PositionDelete;
import io.shelfmark.testing.oracle.ResultComparison;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MIN/MAX from Parquet page statistics ({@link PageExtremes}) and the cost-based choice between
 * page selection and whole-chunk reads ({@code ChunkReadChoice}), against DuckDB and against the
 * same engine with the shortcut off ({@code usePageStatistics=false}) and with chunk reads forced
 * either way.
 *
 * <p>{@code test.pagestats}: four files of 3,000 rows with pages of at most 100 rows, three written
 * by Iceberg's Parquet writer (parquet-java: a ColumnIndex per chunk) and one by DuckDB. Segments
 * index {@code id} (range: exact row ranges) and {@code g} (inverted, runs of 450 rows, NULL for
 * 100 rows); the value columns have no index: {@code v} LONG with two all-null pages and scattered
 * NULLs, {@code i} INT, {@code t} TIMESTAMP, {@code dt} DATE, {@code f} DOUBLE with NaN, {@code fl}
 * FLOAT, {@code s} STRING (never from statistics). One file has deleted rows, one (Iceberg-written)
 * has no segment. Seeded ({@code -Dshelfmark.test.seed=N}).
 */
class TestPageExtremes {
  private static final Logger log = LoggerFactory.getLogger(TestPageExtremes.class);
  private static final long SEED = Long.getLong("shelfmark.test.seed", System.nanoTime());
  private static final int QUERIES = Integer.getInteger("shelfmark.test.queries", 150);
  private static final int ROWS = 3_000;

  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "g", Types.IntegerType.get()),
          Types.NestedField.optional(3, "v", Types.LongType.get()),
          Types.NestedField.optional(4, "i", Types.IntegerType.get()),
          Types.NestedField.optional(5, "f", Types.DoubleType.get()),
          Types.NestedField.optional(6, "fl", Types.FloatType.get()),
          Types.NestedField.optional(7, "t", Types.TimestampType.withoutZone()),
          Types.NestedField.optional(8, "dt", Types.DateType.get()),
          Types.NestedField.optional(9, "s", Types.StringType.get()));

  private static final List<String> AGGREGATES =
      List.of(
          "MIN(v)",
          "MAX(v)",
          "MIN(i)",
          "MAX(i)",
          "MIN(t)",
          "MAX(t)",
          "MIN(dt)",
          "MAX(dt)",
          "MIN(f)",
          "MIN(fl)",
          "COUNT(*)",
          // These keep the row path for the whole query (NaN, truncated strings, counts).
          "MAX(f)",
          "MIN(s)",
          "COUNT(v)");

  private static final List<String> FILTERS =
      List.of(
          "",
          "id < 1500",
          "id BETWEEN 400 AND 2600",
          "id >= 3100 AND id < 8000",
          "g = 1",
          "g IN (0, 2)",
          "g = 2 AND id > 2000",
          "id < 250 OR id > 11000",
          "g IS NULL",
          "id > 100000",
          "id >= 6000 AND id < 9000");

  private static TestingLakeTables lake;
  private static TestingTable table;

  @BeforeAll
  static void writeTable() throws IOException {
    lake = TestingLakeTables.shared();
    table = pageStatsTable(lake);
  }

  @Test
  void randomExtremesEqualDuckDbAndTheRowPath() throws IOException {
    log.info("Page extremes: seed {} (rerun with -Dshelfmark.test.seed={})", SEED, SEED);
    SplittableRandom random = new SplittableRandom(SEED);
    List<String> failures = new ArrayList<>();
    long fromStatistics = 0;
    try (TestingEngine engine = new TestingEngine(lake, table, Mode.PINNED);
        TestingEngine rows = new TestingEngine(lake, table, Mode.PINNED).usePageStatistics(false)) {
      for (int q = 0; q < QUERIES && failures.size() < 10; q++) {
        String sql = query(random);
        try {
          ResultComparison.difference(
                  lake.oracle.query(sql), engine.query(sql), false, 1e-9, Map.of())
              .ifPresent(d -> failures.add("[DuckDB] " + sql + "\n" + d));
          FinalResult fast = engine.finalResult(sql);
          FinalResult slow = rows.finalResult(sql);
          if (!new HashSet<>(fast.rows()).equals(new HashSet<>(slow.rows()))
              || fast.rows().size() != slow.rows().size()) {
            failures.add("[row path] " + sql + "\n" + fast.rows() + " vs " + slow.rows());
          }
          fromStatistics += engine.partial(sql).statistics().parquetPagesFromStatistics();
        } catch (RuntimeException e) {
          failures.add("[failed] " + sql + ": " + e);
        }
      }
    }
    assertThat(failures).as("seed %d", SEED).isEmpty();
    assertThat(fromStatistics).as("pages answered from their statistics").isPositive();
  }

  @Test
  void pagesWhoseRowsAllMatchAreNotRead() throws IOException {
    try (TestingEngine engine = new TestingEngine(lake, table, Mode.PINNED);
        TestingEngine rows = new TestingEngine(lake, table, Mode.PINNED).usePageStatistics(false)) {
      // part-0 alone, every row: each page of v and t is answered from its statistics (v's
      // all-null pages add nothing), none is read.
      String whole =
          "SELECT MIN(v), MAX(v), MIN(t), MAX(t), COUNT(*) FROM test.pagestats WHERE id < 3000";
      // The first query reads the ColumnIndexes of v and t of part-0 in one GET (side by side
      // before the footer) and keeps them with the segment; later ones read no byte of part-0.
      // (Both also read the footer of part-3, which has no segment, and prune its row groups.)
      ExecutionStatistics first = engine.partial(whole).statistics();
      assertThat(first.parquetPagesRead()).isZero();
      ResultComparison.assertEquivalent(lake.oracle.query(whole), engine.query(whole), false, 0);
      ExecutionStatistics on = engine.partial(whole).statistics();
      assertThat(first.parquetRequests() - on.parquetRequests())
          .as("ColumnIndex GETs")
          .isEqualTo(1);
      assertThat(on.parquetRequests()).as("part-3's footer").isEqualTo(1);
      assertThat(on.filesReadWithoutSegment()).isEqualTo(1);
      ExecutionStatistics off = rows.partial(whole).statistics();
      assertThat(off.parquetPagesRead()).as("pages read on the row path").isPositive();
      assertThat(on.parquetPagesRead()).as("pages read from statistics").isZero();
      assertThat(on.parquetPagesFromStatistics()).isEqualTo(off.parquetPagesRead());
      assertThat(on.filesAnsweredFromSegment()).isEqualTo(3);
      // A filter cutting pages: only the two pages at its edges (per column) are read.
      String cut = "SELECT MIN(v), MAX(v) FROM test.pagestats WHERE id BETWEEN 450 AND 2649";
      ResultComparison.assertEquivalent(lake.oracle.query(cut), engine.query(cut), false, 0);
      ExecutionStatistics cutOn = engine.partial(cut).statistics();
      assertThat(cutOn.parquetPagesRead()).isBetween(1L, 2L);
      assertThat(cutOn.parquetPagesFromStatistics()).isPositive();
      assertThat(rows.partial(cut).statistics().parquetPagesRead())
          .isGreaterThan(cutOn.parquetPagesRead() + 10);
      // part-1 has deleted rows: the pages holding them are read, the others are not.
      String deletes =
          "SELECT MIN(i), MAX(i), COUNT(*) FROM test.pagestats WHERE id >= 3000 AND id < 6000";
      ResultComparison.assertEquivalent(
          lake.oracle.query(deletes), engine.query(deletes), false, 0);
      ExecutionStatistics withDeletes = engine.partial(deletes).statistics();
      long readWithout = rows.partial(deletes).statistics().parquetPagesRead();
      assertThat(withDeletes.parquetPagesRead()).isPositive().isLessThan(readWithout / 2);
      // MAX of a double may be NaN, which the statistics leave out: the row path answers.
      String nan = "SELECT MIN(f), MAX(f) FROM test.pagestats WHERE id < 3000";
      ResultComparison.assertEquivalent(lake.oracle.query(nan), engine.query(nan), false, 0);
      assertThat(engine.partial(nan).statistics().parquetPagesFromStatistics()).isZero();
      // The shortcut off: the row path's pages again.
      assertThat(rows.partial(whole).statistics().parquetPagesFromStatistics()).isZero();
    }
  }

  @Test
  void groupedExtremesTakeTheGroupsWholePages() throws IOException {
    try (TestingEngine engine = new TestingEngine(lake, table, Mode.PINNED_PAGES)) {
      String sql =
          "SELECT g, MIN(v), MAX(t), MIN(dt), COUNT(*) FROM test.pagestats WHERE id < 6000 GROUP BY g";
      ResultComparison.assertEquivalent(lake.oracle.query(sql), engine.query(sql), false, 0);
      ExecutionStatistics statistics = engine.partial(sql).statistics();
      assertThat(statistics.parquetPagesFromStatistics()).isPositive();
      assertThat(statistics.docsScanned()).isEqualTo(6000 - deletedInPart1());
    }
  }

  @Test
  void chunkReadsForcedEitherWayGiveTheSameAnswers() throws IOException {
    // Every third page of a column: gaps the coalescer does not read through (64 KiB merge distance
    // is more than these pages' gaps, so take a merge distance of 0 to make them separate reads).
    ReaderOptions base =
        ReaderOptions.builder()
            .maxMergeDistance(io.shelfmark.config.unit.DataSize.ofBytes(0))
            .maxBufferSize(
                io.shelfmark.config.unit.DataSize.of(
                    2, io.shelfmark.config.unit.DataSize.Unit.MEBIBYTE))
            .build();
    String sql =
        "SELECT g, SUM(v), COUNT(i), MAX(s) FROM test.pagestats WHERE v + 1 > -2000 OR g = 1 GROUP BY g";
    String exact = "SELECT SUM(v), MAX(s) FROM test.pagestats WHERE g IN (0, 2) AND id < 12000";
    try (TestingEngine pages =
            new TestingEngine(lake, table, Mode.PINNED)
                .readerOptions(base.withChunkReads(ReaderOptions.ChunkReads.PAGES));
        TestingEngine whole =
            new TestingEngine(lake, table, Mode.PINNED)
                .readerOptions(base.withChunkReads(ReaderOptions.ChunkReads.WHOLE));
        TestingEngine cost = new TestingEngine(lake, table, Mode.PINNED).readerOptions(base)) {
      for (String query : List.of(sql, exact)) {
        var expected = lake.oracle.query(query);
        ResultComparison.assertEquivalent(expected, pages.query(query), false, 1e-9);
        ResultComparison.assertEquivalent(expected, whole.query(query), false, 1e-9);
        ResultComparison.assertEquivalent(expected, cost.query(query), false, 1e-9);
      }
      ExecutionStatistics byPages = pages.partial(exact).statistics();
      ExecutionStatistics byWhole = whole.partial(exact).statistics();
      assertThat(byPages.parquetChunksReadWhole()).isZero();
      assertThat(byWhole.parquetChunksReadWhole()).isPositive();
      assertThat(byWhole.parquetRequests()).isLessThan(byPages.parquetRequests());
      assertThat(byWhole.parquetBytesRead()).isGreaterThan(byPages.parquetBytesRead());
      assertThat(byWhole.parquetPagesRead()).isEqualTo(byPages.parquetPagesRead());
      // A request worth nothing: pages; worth a lot: whole (these pages are a few KiB).
      try (TestingEngine cheap =
              new TestingEngine(lake, table, Mode.PINNED)
                  .readerOptions(
                      base.withRequestCost(io.shelfmark.config.unit.DataSize.ofBytes(0)));
          TestingEngine dear =
              new TestingEngine(lake, table, Mode.PINNED)
                  .readerOptions(
                      base.withRequestCost(
                          io.shelfmark.config.unit.DataSize.of(
                              1, io.shelfmark.config.unit.DataSize.Unit.MEBIBYTE)))) {
        assertThat(cheap.partial(exact).statistics().parquetChunksReadWhole()).isZero();
        assertThat(dear.partial(exact).statistics().parquetChunksReadWhole())
            .isEqualTo(byWhole.parquetChunksReadWhole());
      }
    }
  }

  @Test
  void icebergFilesHaveColumnIndexesAndDuckDbsNone() throws IOException {
    // The fixture's premise: parquet-java wrote a ColumnIndex for the value columns.
    TableFile file = table.files().get(0);
    ParquetFooter footer =
        new FooterReader(1 << 16)
            .read(
                lake.store,
                Location.parse(file.info().path()),
                file.info().fileSizeInBytes(),
                n -> {});
    assertThat(footer.rowGroupCount()).isGreaterThan(1);
    assertThat(PageStatistics.columnIndexOffset(footer, 0, 2)).isPositive();
    TableFile duck = table.files().get(2);
    ParquetFooter duckFooter =
        new FooterReader(1 << 16)
            .read(
                lake.store,
                Location.parse(duck.info().path()),
                duck.info().fileSizeInBytes(),
                n -> {});
    // ... and DuckDB's writer none: its file is the one whose pages all keep the row path.
    assertThat(PageStatistics.columnIndexOffset(duckFooter, 0, 2))
        .as("DuckDB wrote no ColumnIndex (if a newer DuckDB writes one, find another such file)")
        .isNegative();
  }

  private static long deletedInPart1() {
    return table.files().get(1).deleted().getLongCardinality();
  }

  private static String query(SplittableRandom random) {
    List<String> aggregates = new ArrayList<>();
    int count = 1 + random.nextInt(3);
    for (int a = 0; a < count; a++) {
      // Mostly the shapes the statistics answer; now and then one that keeps the row path.
      int bound = random.nextInt(5) == 0 ? AGGREGATES.size() : AGGREGATES.size() - 3;
      aggregates.add(AGGREGATES.get(random.nextInt(bound)));
    }
    String filter = FILTERS.get(random.nextInt(FILTERS.size()));
    boolean grouped = random.nextBoolean();
    return "SELECT "
        + (grouped ? "g, " : "")
        + String.join(", ", aggregates)
        + " FROM test.pagestats"
        + (filter.isEmpty() ? "" : " WHERE " + filter)
        + (grouped ? " GROUP BY g" : "");
  }

  private static TestingTable pageStatsTable(TestingLakeTables lake) throws IOException {
    Path dir = lake.server.baseDirectory().resolve("lake/pagestats");
    Files.createDirectories(dir);
    TestingSegments builder =
        new TestingSegments(
            lake.store,
            lake.io,
            lake.directory.resolve("pagestats-segments"),
            """
            table: {catalog: lake, namespace: test, name: pagestats}
            columns:
              id: {indexes: [range]}
              g: {indexes: [inverted]}
            """,
            SCHEMA);
    List<TableFile> files = new ArrayList<>();
    List<Path> paths = new ArrayList<>();
    List<PositionDelete> deletes = new ArrayList<>();
    for (int part = 0; part < 4; part++) {
      Path local = dir.resolve("part-" + part + ".parquet");
      if (part == 2) {
        lake.oracle.execute(duckDbCopy(part, local));
      } else {
        writeIceberg(part, local);
      }
      DataFileInfo info =
          new DataFileInfo(
              "s3://lake/pagestats/part-" + part + ".parquet",
              FileFormat.PARQUET,
              FileContent.DATA,
              Files.size(local),
              ROWS,
              new FilePartition(0, "", List.of()),
              1,
              1,
              List.of());
      RoaringBitmap deleted = new RoaringBitmap();
      if (part == 1) {
        deleted.add(700L, 760L);
        for (int row = 2000; row < 2400; row += 50) {
          deleted.add(row);
        }
      }
      byte[] segment = part == 3 ? null : builder.build(info);
      files.add(new TableFile(info, local, segment, deleted));
      paths.add(local);
      deleted.forEach((int row) -> deletes.add(new PositionDelete(local, row)));
    }
    lake.oracle.registerTable("test.pagestats", paths, deletes);
    return new TestingTable(
        "test.pagestats",
        SCHEMA,
        IcebergSchemas.toBoundTable(TableName.of("test", "pagestats"), SCHEMA),
        files);
  }

  private static void writeIceberg(int part, Path local) throws IOException {
    Files.deleteIfExists(local);
    try (FileAppender<Record> appender =
        Parquet.write(org.apache.iceberg.Files.localOutput(local.toFile()))
            .schema(SCHEMA)
            .createWriterFunc((schema, type) -> GenericParquetWriter.create(schema, type))
            .set(TableProperties.PARQUET_PAGE_ROW_LIMIT, "100")
            .set(TableProperties.PARQUET_ROW_GROUP_SIZE_BYTES, "40000")
            .set(TableProperties.PARQUET_DICT_SIZE_BYTES, "4096")
            .build()) {
      long base = part * (long) ROWS;
      LocalDateTime start = LocalDateTime.of(2025, 1, 1, 0, 0);
      for (int r = 0; r < ROWS; r++) {
        Record record = GenericRecord.create(SCHEMA);
        record.setField("id", base + r);
        record.setField("g", r >= 2700 && r < 2800 ? null : (r / 450) % 3);
        record.setField(
            "v", (r >= 1000 && r < 1200) || r % 37 == 0 ? null : (r * 7919L) % 10007 - 5000 + part);
        record.setField("i", r % 13 == 0 ? null : (r * 31) % 1000 - 400);
        record.setField(
            "f", r % 17 == 0 ? null : r % 251 == 0 ? Double.NaN : (r % 89) * 0.5 - 20.0);
        record.setField("fl", r % 19 == 0 ? null : (float) ((r % 71) * 0.25 - 8));
        record.setField("t", r % 19 == 0 ? null : start.plusSeconds(r * 61L + base));
        record.setField("dt", r % 23 == 0 ? null : LocalDate.of(2024, 1, 1).plusDays((r * 7) % 50));
        record.setField("s", r % 7 == 0 ? null : "s" + (r % 41));
        appender.add(record);
      }
    }
  }

  private static String duckDbCopy(int part, Path local) {
    long base = part * (long) ROWS;
    return "COPY (SELECT "
        + "(r + "
        + base
        + ")::BIGINT AS id, "
        + "CASE WHEN r >= 2700 AND r < 2800 THEN NULL ELSE ((r // 450) % 3)::INTEGER END AS g, "
        + "CASE WHEN (r >= 1000 AND r < 1200) OR r % 37 = 0 THEN NULL ELSE ((r * 7919) % 10007 - 5000 + "
        + part
        + ")::BIGINT END AS v, "
        + "CASE WHEN r % 13 = 0 THEN NULL ELSE ((r * 31) % 1000 - 400)::INTEGER END AS i, "
        + "CASE WHEN r % 17 = 0 THEN NULL WHEN r % 251 = 0 THEN 'NaN'::DOUBLE ELSE (r % 89) * 0.5 - 20.0 END AS f, "
        + "CASE WHEN r % 19 = 0 THEN NULL ELSE ((r % 71) * 0.25 - 8)::REAL END AS fl, "
        + "CASE WHEN r % 19 = 0 THEN NULL ELSE TIMESTAMP '2025-01-01 00:00:00' + INTERVAL (r * 61 + "
        + base
        + ") SECOND END AS t, "
        + "CASE WHEN r % 23 = 0 THEN NULL ELSE DATE '2024-01-01' + ((r * 7) % 50)::INTEGER END AS dt, "
        + "CASE WHEN r % 7 = 0 THEN NULL ELSE 's' || (r % 41)::VARCHAR END AS s "
        + "FROM range(0, "
        + ROWS
        + ") t(r)) TO '"
        + local
        + "' (FORMAT parquet, ROW_GROUP_SIZE 1000, FIELD_IDS {id: 1, g: 2, v: 3, i: 4, f: 5, fl: 6, t: 7, dt: 8, s: 9})";
  }
}
