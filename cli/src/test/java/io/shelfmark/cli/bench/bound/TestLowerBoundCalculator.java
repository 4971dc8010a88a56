package io.shelfmark.cli.bench.bound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shelfmark.cli.bench.BenchQueries;
import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.cli.lake.LocalLake;
import io.shelfmark.config.unit.DataSize;
import io.shelfmark.generator.GeneratorOptions;
import io.shelfmark.generator.MetricsTableGenerator;
import io.shelfmark.generator.ProgressListener;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.RoaringBitmap;

/**
 * The lower bound against a brute-force walk of every page header of the needed columns, on a small
 * generated table with tiny pages (many pages per chunk, so page selection matters).
 */
class TestLowerBoundCalculator {
  @TempDir static Path dir;

  private static LocalLake lake;
  private static List<Path> files;
  private static ObjectStore local;
  private static ExecutorService io;
  private static DuckDbOracle duckDb;

  @BeforeAll
  static void generate() throws IOException {
    lake = LocalLake.start(dir.resolve("lake"), 0);
    if (lake.catalog() instanceof SupportsNamespaces namespaces) {
      namespaces.createNamespace(Namespace.of("obs"));
    }
    MetricsTableGenerator.generate(
        lake.catalog(),
        TableIdentifier.of("obs", "metrics"),
        GeneratorOptions.builder()
            .rows(20_000)
            .seed(3)
            .pageRowLimit(20)
            .parallelism(4)
            .pageSize(DataSize.of(512, DataSize.Unit.BYTE))
            .build(),
        ProgressListener.none());
    try (Stream<Path> walk = Files.walk(lake.s3().baseDirectory())) {
      files = walk.filter(p -> p.toString().endsWith(".parquet")).sorted().toList();
    }
    local = ObjectStores.local();
    io = Executors.newVirtualThreadPerTaskExecutor();
    duckDb = DuckDbOracle.open();
  }

  @AfterAll
  static void close() throws IOException {
    duckDb.close();
    io.shutdownNow();
    local.close();
    lake.close();
  }

  @Test
  void boundsEqualABruteForcePageWalk() throws IOException {
    LowerBoundCalculator calculator = new LowerBoundCalculator(local, io, duckDb);
    for (BenchQuery query : List.of(BenchQueries.Q2, BenchQueries.Q3, BenchQueries.Q4)) {
      QueryBound bound = calculator.compute(query, files);
      Walk walk = bruteForce(calculator, query);
      assertThat(bound.matchingRows()).as(query.name()).isEqualTo(walk.rows).isPositive();
      assertThat(bound.dataPages()).as(query.name()).isEqualTo(walk.dataPages).isPositive();
      assertThat(bound.dictionaryPages()).as(query.name()).isEqualTo(walk.dictionaryPages);
      assertThat(bound.lowerBoundBytes()).as(query.name()).isEqualTo(walk.bytes);
      assertThat(bound.scanBytes()).as(query.name()).isEqualTo(walk.scanBytes);
      // Tiny pages: matching rows sit in a few of them, far below the scan.
      assertThat(bound.lowerBoundBytes()).as(query.name()).isLessThan(bound.scanBytes());
    }
  }

  @Test
  void theCountNeedsNoPage() throws IOException {
    QueryBound bound = new LowerBoundCalculator(local, io, duckDb).compute(BenchQueries.Q1, files);
    assertThat(bound.matchingRows()).isPositive();
    assertThat(bound.dataPages()).isZero();
    assertThat(bound.lowerBoundBytes()).isZero();
    assertThat(bound.scanBytes()).isPositive();
  }

  @Test
  void theNeedleMatchesThirtyRows() throws IOException {
    QueryBound bound = new LowerBoundCalculator(local, io, duckDb).compute(BenchQueries.Q4, files);
    assertThat(bound.matchingRows()).isEqualTo(30);
    assertThat(bound.neededColumns()).containsExactly("sum_rollup");
  }

  @Test
  void anUnknownColumnIsNamed() throws IOException {
    Path file = files.get(0);
    ParquetFooter footer =
        FooterReader.withDefaults().read(local, Location.parse(file.toString()), Files.size(file));
    assertThatThrownBy(() -> LowerBoundCalculator.leaves(footer, List.of("no_such")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot compute the lower bound over "
                + footer.file()
                + ": it has no column no_such (is it a file of obs.metrics?)");
  }

  private static final class Walk {
    long rows;
    long dataPages;
    long dictionaryPages;
    long bytes;
    long scanBytes;
  }

  /** Reads every page header of every needed chunk in order, counting rows per page itself. */
  private static Walk bruteForce(LowerBoundCalculator calculator, BenchQuery query)
      throws IOException {
    Walk walk = new Walk();
    for (Path file : files) {
      RoaringBitmap rows = calculator.matchingRows(query.duckDbWhere(), file);
      if (rows.isEmpty()) {
        continue;
      }
      walk.rows += rows.getLongCardinality();
      ParquetFooter footer =
          FooterReader.withDefaults()
              .read(local, Location.parse(file.toString()), Files.size(file));
      List<Integer> needed = LowerBoundCalculator.leaves(footer, query.neededColumns());
      List<Integer> scanned = LowerBoundCalculator.leaves(footer, query.scanColumns());
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        long first = footer.rowGroupFirstRow(rowGroup);
        long count = footer.rowGroupRowCount(rowGroup);
        if (!rows.intersects(first, first + count)) {
          continue;
        }
        for (int column : scanned) {
          walk.scanBytes += footer.columnChunk(rowGroup, column).getTotal_compressed_size();
        }
        for (int column : needed) {
          walkChunk(file, footer.columnChunk(rowGroup, column), first, rows, walk);
        }
      }
    }
    return walk;
  }

  private static void walkChunk(
      Path file, ColumnMetaData chunk, long firstRow, RoaringBitmap rows, Walk walk)
      throws IOException {
    long offset = ParquetFooter.chunkStart(chunk);
    long end = offset + chunk.getTotal_compressed_size();
    long dictionarySize = 0;
    boolean needsDictionary = false;
    long row = firstRow;
    try (FileChannel channel = FileChannel.open(file)) {
      while (offset < end) {
        channel.position(offset);
        CountingStream in = new CountingStream(Channels.newInputStream(channel));
        PageHeader header = Util.readPageHeader(in);
        long size = in.count + header.getCompressed_page_size();
        if (header.getType() == PageType.DICTIONARY_PAGE) {
          dictionarySize = size;
        } else {
          // Flat required/optional columns in v1 pages: one value (or null) per row.
          int pageRows =
              header.isSetData_page_header()
                  ? header.getData_page_header().getNum_values()
                  : header.getData_page_header_v2().getNum_rows();
          if (rows.intersects(row, row + pageRows)) {
            walk.dataPages++;
            walk.bytes += size;
            needsDictionary |= PageHeaders.dictionaryEncoded(header);
          }
          row += pageRows;
        }
        offset += size;
      }
    }
    if (needsDictionary && dictionarySize > 0) {
      walk.dictionaryPages++;
      walk.bytes += dictionarySize;
    }
  }

  /** Counts the bytes a page-header read consumed. */
  private static final class CountingStream extends InputStream {
    private final InputStream in;
    long count;

    CountingStream(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        count++;
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = in.read(buffer, offset, length);
      if (n > 0) {
        count += n;
      }
      return n;
    }
  }
}
