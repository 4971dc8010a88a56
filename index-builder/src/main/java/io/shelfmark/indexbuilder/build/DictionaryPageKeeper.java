package io.shelfmark.indexbuilder.build;

import io.shelfmark.parquet.metadata.ColumnChunkPages;
import io.shelfmark.parquet.metadata.FilePageLocations;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.storage.coalesce.ByteRange;
import io.shelfmark.storage.coalesce.CoalescedPlan;
import io.shelfmark.storage.coalesce.CoalescedRead;
import io.shelfmark.storage.coalesce.RangeCoalescer;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * Chooses the Parquet dictionary pages a segment keeps and reads them, once per build: the pages
 * read here also serve the build's own decoding of the indexed columns (handed to the reader as
 * kept pages), so no dictionary page is fetched twice.
 *
 * <p>Choice: column chunks' dictionary pages within the budget ({@code dictionary-pages.max-size}
 * per data file, at most {@link #MAX_SHARE_OF_FILE} of it), first those of the columns the segment
 * does not index, then those of the indexed ones ({@link
 * io.shelfmark.indexbuilder.column.FileColumns#indexedLeaves}); smallest first within each group; a
 * page that does not fit is skipped and smaller ones after it may still be kept. A query reads an
 * unindexed column (a measure such as {@code sum_rollup}) from Parquet whenever it needs it, and
 * each of its dictionary-encoded pages needs the chunk's dictionary page; an indexed column's
 * values come from the segment (dictionary, forward, sorted or inverted index), so its dictionary
 * page is read only by the rarer query that decodes its pages. On pyarrow-written files (dictionary
 * on every column, falling back to PLAIN past 1 MiB) the measures' pages are the largest, about 1
 * MiB each, and smallest-first left exactly them out: the benchmark's Q2 and Q3 fetched the 1 MiB
 * dictionary page of their measure on every query (performance.md, the pyarrow table). Smallest
 * first within a group keeps the most chunks per byte: a chunk whose page is not kept costs one
 * more range in a query's read (often merged with its data pages), whatever its size.
 * Deterministic: ties go by file offset.
 *
 * <p>Stateless; the reads run on the given executor (they block).
 */
final class DictionaryPageKeeper {
  /**
   * Kept pages take at most this share of the data file's bytes. Segments must stay within a
   * quarter of the data they index (index-builder.md: 21.4% without dictionary pages on the
   * benchmark table at 2M rows); every dictionary page of that table would add 12.5% of its bytes
   * (8.1 of 65.0 MB: the high-cardinality chunks' dictionaries before parquet-java falls back to
   * PLAIN), so the largest are left out. Part of the builder's version: changing it rebuilds.
   */
  static final double MAX_SHARE_OF_FILE = 0.03;

  private DictionaryPageKeeper() {}

  /** The budget for one data file of {@code fileSize} bytes under a configured {@code maxBytes}. */
  static long budget(long maxBytes, long fileSize) {
    return Math.min(maxBytes, (long) (fileSize * MAX_SHARE_OF_FILE));
  }

  /**
   * The dictionary pages to keep within {@code maxBytes}, in file order.
   *
   * @param indexedLeaves the leaf columns (by index in the file's schema) the segment indexes:
   *     their pages come after every other column's
   */
  static List<ByteRange> choose(
      FilePageLocations pages, long maxBytes, Set<Integer> indexedLeaves) {
    List<Candidate> all = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < pages.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < pages.columnCount(); column++) {
        boolean indexed = indexedLeaves.contains(column);
        pages
            .find(rowGroup, column)
            .filter(ColumnChunkPages::hasDictionaryPage)
            .ifPresent(
                chunk ->
                    all.add(
                        new Candidate(
                            new ByteRange(chunk.dictionaryOffset(), chunk.dictionarySize()),
                            indexed)));
      }
    }
    all.sort(
        Comparator.comparing(Candidate::indexed)
            .thenComparingLong((Candidate c) -> c.range().length())
            .thenComparingLong(c -> c.range().offset()));
    List<ByteRange> chosen = new ArrayList<>();
    long bytes = 0;
    for (Candidate candidate : all) {
      if (bytes + candidate.range().length() <= maxBytes) {
        bytes += candidate.range().length();
        chosen.add(candidate.range());
      }
    }
    chosen.sort(Comparator.naturalOrder());
    return chosen;
  }

  /** A chunk's dictionary page and whether the segment indexes the chunk's column. */
  private record Candidate(ByteRange range, boolean indexed) {}

  /**
   * Reads {@code ranges} of {@code file} with coalesced GETs, all started at once.
   *
   * @return each range's bytes by its offset
   */
  static Map<Long, byte[]> read(
      ObjectStore store,
      Executor executor,
      Location file,
      List<ByteRange> ranges,
      ReaderOptions options)
      throws IOException {
    Map<Long, byte[]> pages = new TreeMap<>();
    if (ranges.isEmpty()) {
      return pages;
    }
    CoalescedPlan plan =
        new RangeCoalescer(options.maxMergeDistance().bytes(), options.maxBufferSize().bytes())
            .coalesce(ranges);
    List<CompletableFuture<byte[]>> gets = new ArrayList<>(plan.reads().size());
    for (ByteRange read : plan.reads()) {
      gets.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return store.readRange(file, read.offset(), Math.toIntExact(read.length()));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              },
              executor));
    }
    List<byte[]> data = new ArrayList<>(gets.size());
    for (CompletableFuture<byte[]> get : gets) {
      data.add(join(get, file));
    }
    for (CoalescedRead request : plan.requests()) {
      ByteBuffer bytes = request.bytes(data);
      byte[] page = new byte[bytes.remaining()];
      bytes.get(page);
      pages.put(request.requested().offset(), page);
    }
    return pages;
  }

  private static byte[] join(CompletableFuture<byte[]> get, Location file) throws IOException {
    try {
      return get.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted =
          new InterruptedIOException("Interrupted reading the dictionary pages of " + file);
      interrupted.initCause(e);
      throw interrupted;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UncheckedIOException unchecked) {
        throw unchecked.getCause();
      }
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IOException("Cannot read the dictionary pages of " + file, e.getCause());
    }
  }
}
