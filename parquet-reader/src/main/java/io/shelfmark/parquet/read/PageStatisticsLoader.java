package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.metadata.PageStatistics;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Reads the ColumnIndexes (per-page min/max and null flags) of column chunks: the indexes of one
 * column's chunks lie side by side before the footer, so they coalesce into one or a few GETs.
 * Chunks whose writer wrote no ColumnIndex get none (their pages have no statistics to use).
 *
 * <p>Thread safe: holds only its collaborators.
 */
public final class PageStatisticsLoader {
  private final ObjectStore store;
  private final Executor executor;
  private final ReaderOptions options;

  public PageStatisticsLoader(ObjectStore store, Executor executor, ReaderOptions options) {
    this.store = requireNonNull(store, "store is null");
    this.executor = requireNonNull(executor, "executor is null");
    this.options = requireNonNull(options, "options is null");
  }

  /**
   * The page statistics of leaf columns' chunks in each row group, and what reading them cost.
   *
   * @param statistics per leaf column asked for, per row group: the chunk's statistics, empty when
   *     the file has none for it or the row group has no rows
   * @param requests the GETs issued
   * @param bytes the bytes they returned
   */
  public record Loaded(
      Map<Integer, List<Optional<PageStatistics>>> statistics, int requests, long bytes) {
    public Loaded {
      statistics = Map.copyOf(requireNonNull(statistics, "statistics is null"));
    }
  }

  /**
   * Reads the ColumnIndexes of leaf {@code columns} in every row group with rows, in one coalesced
   * batch of GETs (a file's indexes lie side by side before its footer: usually one GET).
   *
   * @param pages page locations covering those chunks (each index is checked against them)
   */
  public Loaded load(
      Location file, ParquetFooter footer, FilePageLocations pages, List<Integer> columns)
      throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(footer, "footer is null");
    requireNonNull(pages, "pages is null");
    List<ByteRange> ranges = new ArrayList<>();
    List<int[]> chunks = new ArrayList<>();
    Map<Integer, List<Optional<PageStatistics>>> found = new LinkedHashMap<>();
    for (int column : columns) {
      List<Optional<PageStatistics>> none = new ArrayList<>(footer.rowGroupCount());
      for (int rowGroup = 0; rowGroup < footer.rowGroupCount(); rowGroup++) {
        none.add(Optional.empty());
        long offset = PageStatistics.columnIndexOffset(footer, rowGroup, column);
        if (offset >= 0
            && footer.rowGroupRowCount(rowGroup) > 0
            && pages.find(rowGroup, column).isPresent()) {
          ranges.add(
              new ByteRange(offset, PageStatistics.columnIndexLength(footer, rowGroup, column)));
          chunks.add(new int[] {rowGroup, column});
        }
      }
      found.put(column, none);
    }
    if (ranges.isEmpty()) {
      return new Loaded(found, 0, 0);
    }
    ReadCounters counters = new ReadCounters();
    try (RangeFetch fetch =
        new RangeFetch(
            store,
            file,
            executor,
            counters,
            Long.MAX_VALUE,
            Coalescing.merge(ranges, options),
            ranges)) {
      fetch.start();
      for (int i = 0; i < ranges.size(); i++) {
        int rowGroup = chunks.get(i)[0];
        int column = chunks.get(i)[1];
        ColumnChunkPages chunk = pages.find(rowGroup, column).orElseThrow();
        found
            .get(column)
            .set(
                rowGroup,
                Optional.of(
                    PageStatistics.parse(
                        footer, rowGroup, column, fetch.await(ranges.get(i)), chunk)));
      }
    }
    ReadStats stats = counters.snapshot(0, 0, 0);
    return new Loaded(found, stats.requests(), stats.bytesRead());
  }
}
