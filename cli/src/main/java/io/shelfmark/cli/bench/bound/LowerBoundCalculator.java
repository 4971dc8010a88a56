package io.shelfmark.cli.bench.bound;

import static java.util.Objects.requireNonNull;

import io.shelfmark.cli.bench.BenchQuery;
import io.shelfmark.cli.bench.report.QueryBound;
import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.PageLocation;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.read.PageLocationLoader;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.testing.oracle.DuckDbOracle;
import io.shelfmark.testing.oracle.QueryResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.roaringbitmap.RoaringBitmap;

/**
 * The lower bound of bytes of a query: what any reader of the table's Parquet files must fetch to
 * answer it, given indexes that find the matching rows for free. Computed from the files' layout,
 * independently of Shelfmark's planner:
 *
 * <ol>
 *   <li>DuckDB finds each file's matching rows ({@code read_parquet(file, file_row_number=true)}
 *       with the query's WHERE clause).
 *   <li>From the footer and page locations (OffsetIndex, else a header walk) of each file with a
 *       match, for each needed column's leaf: every data page whose rows {@code [first row, next
 *       page's first row)} hold a matching row counts with its compressed size (header included).
 *   <li>A chunk's dictionary page counts once when one of its counted pages is dictionary-encoded
 *       (read from that page's header: a page that fell back to PLAIN does not need it).
 * </ol>
 *
 * <p>It also gives the bytes a scan engine reads: every leaf of every column the query references,
 * whole column chunks, in the row groups that hold a matching row (perfect file and row-group
 * pruning, the scan engine's best case).
 *
 * <p>Not thread safe (one DuckDB connection); reads files from local disk only.
 */
public final class LowerBoundCalculator {
  private final ObjectStore localStore;
  private final Executor executor;
  private final DuckDbOracle duckDb;

  /**
   * @param localStore reads {@code file:} locations (for footers and page locations)
   * @param executor runs the page-location loader's reads
   * @param duckDb an open DuckDB to find matching rows with
   */
  public LowerBoundCalculator(ObjectStore localStore, Executor executor, DuckDbOracle duckDb) {
    this.localStore = requireNonNull(localStore, "localStore is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.duckDb = requireNonNull(duckDb, "duckDb is null");
  }

  /** The bound of {@code query} over {@code files} (local Parquet files of the table). */
  public QueryBound compute(BenchQuery query, List<Path> files) throws IOException {
    requireNonNull(query, "query is null");
    requireNonNull(files, "files is null");
    Totals totals = new Totals();
    for (Path file : files) {
      RoaringBitmap rows = matchingRows(query.duckDbWhere(), file);
      if (rows.isEmpty()) {
        continue;
      }
      totals.matchingRows += rows.getLongCardinality();
      totals.files++;
      addFile(file, rows, query, totals);
    }
    return new QueryBound(
        query.name(),
        totals.matchingRows,
        totals.files,
        query.neededColumns(),
        totals.dataPages,
        totals.dictionaryPages,
        totals.lowerBoundBytes,
        totals.scanBytes);
  }

  private static final class Totals {
    long matchingRows;
    long files;
    long dataPages;
    long dictionaryPages;
    long lowerBoundBytes;
    long scanBytes;
  }

  /**
   * The ordinals of the rows of {@code file} matching {@code where}: one DuckDB query per file, so
   * only one file's row numbers are held at a time.
   */
  RoaringBitmap matchingRows(String where, Path file) {
    String path = file.toAbsolutePath().normalize().toString().replace("'", "''");
    QueryResult result =
        duckDb.query(
            "SELECT file_row_number FROM read_parquet('"
                + path
                + "', file_row_number = true) WHERE "
                + where);
    RoaringBitmap rows = new RoaringBitmap();
    for (List<Object> row : result.rows()) {
      rows.add((int) ((Number) row.get(0)).longValue());
    }
    return rows;
  }

  private void addFile(Path file, RoaringBitmap rows, BenchQuery query, Totals totals)
      throws IOException {
    Location location = Location.parse(file.toAbsolutePath().toString());
    long size = Files.size(file);
    ParquetFooter footer = FooterReader.withDefaults().read(localStore, location, size);
    FilePageLocations pages =
        new PageLocationLoader(localStore, executor, ReaderOptions.defaults())
            .load(location, footer);
    List<Integer> needed = leaves(footer, query.neededColumns());
    List<Integer> scanned = leaves(footer, query.scanColumns());
    try (PageHeaders headers = new PageHeaders(file)) {
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        long first = footer.rowGroupFirstRow(rowGroup);
        long count = footer.rowGroupRowCount(rowGroup);
        if (count == 0 || !rows.intersects(first, first + count)) {
          continue;
        }
        for (int column : scanned) {
          totals.scanBytes += footer.columnChunk(rowGroup, column).getTotal_compressed_size();
        }
        for (int column : needed) {
          ColumnChunkPages chunk = pages.find(rowGroup, column).orElseThrow();
          addChunk(chunk, first, rows, headers, totals);
        }
      }
    }
  }

  private static void addChunk(
      ColumnChunkPages chunk,
      long rowGroupFirst,
      RoaringBitmap rows,
      PageHeaders headers,
      Totals totals)
      throws IOException {
    boolean dictionary = false;
    for (int i = 0; i < chunk.pageCount(); i++) {
      PageLocation page = chunk.page(i);
      long from = rowGroupFirst + page.firstRowIndex();
      long to = from + chunk.pageRowCount(i);
      if (to <= from || !rows.intersects(from, to)) {
        continue;
      }
      totals.dataPages++;
      totals.lowerBoundBytes += page.compressedSize();
      if (!dictionary
          && chunk.hasDictionaryPage()
          && PageHeaders.dictionaryEncoded(headers.read(page.offset()))) {
        dictionary = true;
      }
    }
    if (dictionary) {
      totals.dictionaryPages++;
      totals.lowerBoundBytes += chunk.dictionarySize();
    }
  }

  /** The leaf column indexes of the named top-level columns (a map stands for its leaves). */
  static List<Integer> leaves(ParquetFooter footer, List<String> columns) {
    List<Integer> leaves = new ArrayList<>();
    for (String column : columns) {
      int before = leaves.size();
      for (int leaf = 0; leaf < footer.columnCount(); leaf++) {
        String path = footer.columnPath(leaf);
        if (path.equals(column) || path.startsWith(column + ".")) {
          leaves.add(leaf);
        }
      }
      if (leaves.size() == before) {
        throw new IllegalArgumentException(
            "Cannot compute the lower bound over "
                + footer.file()
                + ": it has no column "
                + column
                + " (is it a file of obs.metrics?)");
      }
    }
    return leaves;
  }
}
