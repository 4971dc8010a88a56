package io.shelfmark.parquet.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageEncodings;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.metadata.TestingParquetFiles;
import io.shelfmark.parquet.plan.ColumnChunkPlan;
import io.shelfmark.parquet.plan.PagePlan;
import io.shelfmark.parquet.plan.RowGroupPlan;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.storage.local.LocalObjectStore;
import io.shelfmark.storage.spi.Location;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
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
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.roaringbitmap.RoaringBitmap;

/**
 * Chunks that fall back from dictionary to PLAIN pages, from two writers: pyarrow ({@code
 * src/test/resources/pyarrow/dictionary-fallback.parquet}, written by the script beside it) and
 * parquet-java (written here with a 1 KiB dictionary limit), each with columns {@code id}, {@code
 * v}, {@code s} and {@code k}. Their page locations come from the OffsetIndex, the pages' encodings
 * from the footer's {@code encoding_stats}; both must equal what a walk over the page headers
 * finds. A read of PLAIN pages only fetches no dictionary page, a read spanning dictionary-encoded
 * and PLAIN pages fetches it, and every read equals DuckDB's values of the same rows. A layout that
 * calls a dictionary-encoded page PLAIN is refused, naming the page.
 */
class TestDictionaryFallback {
  @TempDir static Path directory;
  private static ExecutorService executor;
  private static Path pyarrowFile;
  private static Path parquetJavaFile;

  @BeforeAll
  static void files() throws IOException {
    executor = Executors.newFixedThreadPool(4);
    pyarrowFile = directory.resolve("pyarrow-dictionary-fallback.parquet");
    try (InputStream in =
        TestDictionaryFallback.class.getResourceAsStream("/pyarrow/dictionary-fallback.parquet")) {
      Files.copy(in, pyarrowFile);
    }
    parquetJavaFile =
        writeParquetJava(directory.resolve("parquet-java-dictionary-fallback.parquet"));
  }

  /**
   * 2 row groups of 3000 rows, pages of 100 rows, a 1 KiB dictionary limit. parquet-java keeps a
   * chunk PLAIN from its first page when that page's dictionary does not pay off, so {@code v} and
   * {@code s} repeat 7 values for their first 500 rows of each row group (dictionary-encoded pages)
   * and then turn unique, outgrow the dictionary and fall back to PLAIN; {@code k} (5 values) stays
   * encoded; {@code id} is PLAIN throughout.
   */
  private static Path writeParquetJava(Path file) throws IOException {
    MessageType schema =
        MessageTypeParser.parseMessageType(
            "message fallback { required int64 id; required int64 v; optional binary s (STRING);"
                + " required binary k (STRING); }");
    SimpleGroupFactory groups = new SimpleGroupFactory(schema);
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new LocalOutputFile(file))
            .withConf(new Configuration(false))
            .withType(schema)
            .withWriterVersion(WriterVersion.PARQUET_1_0)
            .withCompressionCodec(CompressionCodecName.SNAPPY)
            .withRowGroupRowCountLimit(3_000)
            .withPageRowCountLimit(100)
            .withMinRowCountForPageSizeCheck(1)
            .withDictionaryEncoding(true)
            .withDictionaryPageSize(1024)
            .build()) {
      for (long id = 0; id < 6_000; id++) {
        boolean repeating = id % 3_000 < 500;
        long v = repeating ? id % 7 : id * 2654435761L % 1_000_003;
        Group row = groups.newGroup().append("id", id).append("v", v);
        if (id % 13 != 0) {
          row.append("s", "s-" + (repeating ? id % 7 : id * 7919 % 100_000));
        }
        writer.write(row.append("k", "k-" + id % 5));
      }
    }
    return file;
  }

  @AfterAll
  static void stop() {
    executor.shutdownNow();
  }

  private static Path file(String writer) {
    return writer.equals("pyarrow") ? pyarrowFile : parquetJavaFile;
  }

  private static List<String> columns() {
    return List.of("id", "v", "s", "k");
  }

  @ParameterizedTest
  @ValueSource(strings = {"pyarrow", "parquet-java"})
  void encodingStatsGiveThePagesEncodingsAsTheirHeadersDo(String writer) throws IOException {
    Path file = file(writer);
    ParquetFooter footer = footer(file);
    FilePageLocations indexed = loader().load(location(file), footer);
    Path stripped =
        TestingParquetFiles.stripPageIndex(file, directory.resolve("stripped-" + writer));
    FilePageLocations walked = loader().load(location(stripped), footer(stripped));
    int mixed = 0;
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < footer.columnCount(); column++) {
        ColumnChunkPages fromIndex = indexed.find(rowGroup, column).orElseThrow();
        ColumnChunkPages fromWalk = walked.find(rowGroup, column).orElseThrow();
        assertThat(fromIndex.source()).isEqualTo(ColumnChunkPages.Source.OFFSET_INDEX);
        assertThat(fromIndex.encodings().known())
            .as("%s writes encoding_stats (row group %d, %s)", writer, rowGroup, column)
            .isTrue();
        assertThat(fromIndex.encodings())
            .as("row group %d, column %s", rowGroup, footer.columnPath(column))
            .isEqualTo(fromWalk.encodings());
        if (isMixed(fromIndex)) {
          mixed++;
        }
      }
    }
    assertThat(mixed).as("chunks mixing dictionary-encoded and PLAIN pages").isGreaterThan(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"pyarrow", "parquet-java"})
  void aReadOfPlainPagesOnlyFetchesNoDictionaryPage(String writer)
      throws IOException, SQLException {
    Path file = file(writer);
    ParquetFooter footer = footer(file);
    FilePageLocations locations = loader().load(location(file), footer);
    String column = mixedColumn(footer, locations);
    ColumnChunkPages chunk = locations.find(0, columnIndex(footer, column)).orElseThrow();
    int lastPage = chunk.pageCount() - 1;
    assertThat(chunk.pageNeedsDictionary(lastPage)).isFalse();
    assertThat(chunk.pageNeedsDictionary(0)).isTrue();

    // Rows of the chunk's last page only: PLAIN, so its dictionary page is not read.
    RoaringBitmap plainRows = pageRows(chunk, lastPage);
    try (ParquetRead read = reader().start(request(file, footer, locations, column, plainRows))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(duckDb(file, List.of(column), plainRows));
      PagePlan plan = read.plan();
      ColumnChunkPlan planned = plan.rowGroups().get(0).columns().get(0);
      assertThat(planned.dictionaryPage()).isEmpty();
      assertThat(planned.dictionarySkipped()).isTrue();
      assertThat(plan.dictionaryPageCount()).isZero();
      assertThat(plan.skippedDictionaryPageCount()).isEqualTo(1);
      assertThat(read.stats().dictionaryPagesRead()).isZero();
      assertThat(read.stats().lowerBoundBytes()).isEqualTo(chunk.page(lastPage).compressedSize());
    }

    // Rows of the first page and the last: the first needs the dictionary, so it is fetched.
    RoaringBitmap spanning = pageRows(chunk, 0);
    spanning.or(plainRows);
    try (ParquetRead read = reader().start(request(file, footer, locations, column, spanning))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(duckDb(file, List.of(column), spanning));
      assertThat(read.plan().dictionaryPageCount()).isEqualTo(1);
      assertThat(read.plan().skippedDictionaryPageCount()).isZero();
      assertThat(read.stats().lowerBoundBytes())
          .isEqualTo(
              chunk.dictionarySize()
                  + chunk.page(0).compressedSize()
                  + chunk.page(lastPage).compressedSize());
    }

    // Unknown encodings (a segment written before they were recorded): fetched as before.
    FilePageLocations unknown = withEncodings(footer, locations, PageEncodings.UNKNOWN);
    try (ParquetRead read = reader().start(request(file, footer, unknown, column, plainRows))) {
      assertThat(TestingRows.rows(read.readAll()))
          .isEqualTo(duckDb(file, List.of(column), plainRows));
      assertThat(read.plan().dictionaryPageCount()).isEqualTo(1);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"pyarrow", "parquet-java"})
  void randomSelectionsEqualDuckDbAndFetchADictionaryOnlyForEncodedPages(String writer)
      throws IOException, SQLException {
    Path file = file(writer);
    ParquetFooter footer = footer(file);
    FilePageLocations locations = loader().load(location(file), footer);
    List<String> columns = columns();
    Random random = new Random(25);
    int skippedSomewhere = 0;
    for (int round = 0; round < 20; round++) {
      RoaringBitmap rows = new RoaringBitmap();
      // A run of rows somewhere in the file: some rounds stay in PLAIN pages, some span both.
      int from = random.nextInt(6_000);
      rows.add((long) from, Math.min(6_000L, from + 1 + random.nextInt(400)));
      try (ParquetRead read = reader().start(request(file, footer, locations, columns, rows))) {
        assertThat(TestingRows.rows(read.readAll()))
            .as("round %d, rows %s", round, rows)
            .isEqualTo(duckDb(file, columns, rows));
        for (RowGroupPlan rowGroup : read.plan().rowGroups()) {
          for (ColumnChunkPlan chunk : rowGroup.columns()) {
            ColumnChunkPages pages =
                locations.find(rowGroup.rowGroup(), chunk.column()).orElseThrow();
            boolean needed =
                chunk.pages().stream().anyMatch(p -> pages.pageNeedsDictionary(p.pageIndex()));
            assertThat(chunk.dictionaryPage().isPresent())
                .as("round %d: %s of row group %d", round, chunk.path(), rowGroup.rowGroup())
                .isEqualTo(needed);
            skippedSomewhere += chunk.dictionarySkipped() ? 1 : 0;
          }
        }
      }
    }
    assertThat(skippedSomewhere).isPositive();
  }

  @ParameterizedTest
  @ValueSource(strings = {"pyarrow", "parquet-java"})
  void aDictionaryEncodedPageTheLayoutCallsPlainIsRefused(String writer) throws IOException {
    Path file = file(writer);
    ParquetFooter footer = footer(file);
    FilePageLocations locations = loader().load(location(file), footer);
    String column = mixedColumn(footer, locations);
    ColumnChunkPages chunk = locations.find(0, columnIndex(footer, column)).orElseThrow();
    FilePageLocations lying =
        withEncodings(
            footer, locations, PageEncodings.firstDictionaryEncoded(0, chunk.pageCount()));
    RoaringBitmap firstPage = pageRows(chunk, 0);
    try (ParquetRead read = reader().start(request(file, footer, lying, column, firstPage))) {
      assertThatThrownBy(read::readAll)
          .isInstanceOf(CorruptParquetException.class)
          .hasMessageContaining(file.getFileName().toString())
          .hasMessageContaining("column " + column)
          .hasMessageContaining("page 0")
          .hasMessageContaining(
              "-encoded, but the page layout records it as not dictionary-encoded, so the chunk's dictionary page at offset %d was not read"
                  .formatted(chunk.dictionaryOffset()))
          .hasMessageContaining("rebuild its segment");
    }
  }

  private static boolean isMixed(ColumnChunkPages chunk) {
    boolean encoded = false;
    boolean plain = false;
    for (int page = 0; page < chunk.pageCount(); page++) {
      encoded |= chunk.pageNeedsDictionary(page);
      plain |= !chunk.pageNeedsDictionary(page);
    }
    return encoded && plain;
  }

  /** The first column whose first row group's chunk mixes encoded and PLAIN pages. */
  private static String mixedColumn(ParquetFooter footer, FilePageLocations locations) {
    for (int column = 0; column < footer.columnCount(); column++) {
      if (isMixed(locations.find(0, column).orElseThrow())) {
        return footer.columnPath(column);
      }
    }
    throw new AssertionError("no chunk mixes dictionary-encoded and PLAIN pages");
  }

  private static int columnIndex(ParquetFooter footer, String path) {
    for (int column = 0; column < footer.columnCount(); column++) {
      if (footer.columnPath(column).equals(path)) {
        return column;
      }
    }
    throw new AssertionError("no column " + path);
  }

  /** The rows of page {@code page} of a chunk of the first row group. */
  private static RoaringBitmap pageRows(ColumnChunkPages chunk, int page) {
    long first = chunk.page(page).firstRowIndex();
    RoaringBitmap rows = new RoaringBitmap();
    rows.add(first, first + chunk.pageRowCount(page));
    return rows;
  }

  /** The same locations with every chunk's encodings replaced (unknown, or as given). */
  private static FilePageLocations withEncodings(
      ParquetFooter footer, FilePageLocations locations, PageEncodings encodings) {
    FilePageLocations.Builder builder =
        FilePageLocations.builder(footer.rowGroupCount(), footer.columnCount());
    for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < footer.columnCount(); column++) {
        ColumnChunkPages chunk = locations.find(rowGroup, column).orElseThrow();
        builder.add(
            rowGroup,
            column,
            chunk.withEncodings(
                encodings.known()
                    ? PageEncodings.firstDictionaryEncoded(0, chunk.pageCount())
                    : encodings));
      }
    }
    return builder.build();
  }

  /** DuckDB's rows at these ordinals: file row number, then the columns' values. */
  private static List<List<Object>> duckDb(Path file, List<String> columns, RoaringBitmap rows)
      throws SQLException {
    StringJoiner ordinals = new StringJoiner(",");
    rows.forEach((int row) -> ordinals.add(Integer.toString(row)));
    String sql =
        "SELECT file_row_number, %s FROM read_parquet('%s', file_row_number = true) WHERE file_row_number IN (%s) ORDER BY file_row_number"
            .formatted(String.join(", ", columns), file, ordinals);
    List<List<Object>> result = new ArrayList<>();
    try (Connection connection = TestingParquetFiles.duckDb();
        Statement statement = connection.createStatement();
        ResultSet set = statement.executeQuery(sql)) {
      while (set.next()) {
        List<Object> row = new ArrayList<>();
        row.add(set.getLong(1));
        for (int i = 0; i < columns.size(); i++) {
          row.add(set.getObject(i + 2));
        }
        result.add(row);
      }
    }
    assertThat(result).hasSize(rows.getCardinality());
    return result;
  }

  private static ReadRequest request(
      Path file,
      ParquetFooter footer,
      FilePageLocations locations,
      String column,
      RoaringBitmap rows) {
    return request(file, footer, locations, List.of(column), rows);
  }

  private static ReadRequest request(
      Path file,
      ParquetFooter footer,
      FilePageLocations locations,
      List<String> columns,
      RoaringBitmap rows) {
    return ReadRequest.of(location(file), footer, locations, columns, RowSelection.of(rows));
  }

  private static ParquetFooter footer(Path file) throws IOException {
    return FooterReader.withDefaults()
        .read(LocalObjectStore.unconfined(), location(file), Files.size(file));
  }

  private static PageLocationLoader loader() {
    return new PageLocationLoader(
        LocalObjectStore.unconfined(), Runnable::run, ReaderOptions.defaults());
  }

  private static ParquetFileReader reader() {
    return new ParquetFileReader(LocalObjectStore.unconfined(), executor, ReaderOptions.defaults());
  }

  private static Location location(Path file) {
    return Location.parse(file.toAbsolutePath().toString());
  }
}
