package io.shelfmark.indexbuilder.build;

import io.shelfmark.indexbuilder.spec.DictionaryPagesSpec;
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
 * <p>Choice, within the file's budget ({@link DictionaryPagesSpec#budget}: {@code
 * dictionary-pages.max-size} and {@code max-share} of the file) and among the columns {@code
 * dictionary-pages.columns} allows (every column by default):
 *
 * <ol>
 *   <li>a chunk none of whose data pages is dictionary-encoded is never kept: no query decodes its
 *       dictionary (writers fall back to PLAIN when a dictionary outgrows their limit, and some
 *       write the dictionary page anyway);
 *   <li>the columns the segment does not index come first, then the indexed ones ({@link
 *       io.shelfmark.indexbuilder.column.FileColumns#indexedLeaves}): a query reads an unindexed
 *       column (a measure such as {@code sum_rollup}) from Parquet whenever it needs it, while an
 *       indexed column's values come from the segment, so its dictionary page is read only by the
 *       rarer query that decodes its pages;
 *   <li>within each group, the chunks whose rows most need their dictionary come first ({@link
 *       ColumnChunkPages#rowShareNeedingDictionary}): a kept byte saves a fetched byte for each
 *       query reading a row on a dictionary-encoded page, so the page of a chunk that is all
 *       dictionary-encoded saves more than that of a chunk whose writer fell back to PLAIN after a
 *       quarter of its rows;
 *   <li>then smallest first, which keeps the most chunks per byte (each chunk whose page is not
 *       kept costs a query one more range); ties go by file offset, so the choice is deterministic.
 * </ol>
 *
 * <p>A page that does not fit is skipped and later ones may still be kept. On pyiceberg-written
 * files (2 MiB dictionaries, falling back to PLAIN after) the benchmark's Q4 needs the 2.1 MB
 * dictionary page of the last row group's {@code sum_rollup} chunk; performance.md has what each
 * rule changed.
 *
 * <p>Stateless; the reads run on the given executor (they block).
 */
final class DictionaryPageKeeper {
  private DictionaryPageKeeper() {}

  /**
   * The dictionary pages to keep within {@code maxBytes}, in file order.
   *
   * @param indexedLeaves the leaf columns (by index in the file's schema) the segment indexes:
   *     their pages come after every other column's
   * @param eligibleLeaves the leaf columns whose pages may be kept at all
   */
  static List<ByteRange> choose(
      FilePageLocations pages,
      long maxBytes,
      Set<Integer> indexedLeaves,
      Set<Integer> eligibleLeaves) {
    List<Candidate> all = new ArrayList<>();
    for (int rowGroup = 0; rowGroup < pages.rowGroupCount(); rowGroup++) {
      for (int column = 0; column < pages.columnCount(); column++) {
        if (!eligibleLeaves.contains(column)) {
          continue;
        }
        boolean indexed = indexedLeaves.contains(column);
        pages
            .find(rowGroup, column)
            .filter(chunk -> chunk.rowShareNeedingDictionary() > 0)
            .ifPresent(
                chunk ->
                    all.add(
                        new Candidate(
                            new ByteRange(chunk.dictionaryOffset(), chunk.dictionarySize()),
                            indexed,
                            chunk.rowShareNeedingDictionary())));
      }
    }
    all.sort(
        Comparator.comparing(Candidate::indexed)
            .thenComparing(Comparator.comparingDouble(Candidate::rowShare).reversed())
            .thenComparingLong(c -> c.range().length())
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

  /**
   * A chunk's dictionary page, whether the segment indexes the chunk's column, and the share of the
   * chunk's rows on pages that need the page.
   */
  private record Candidate(ByteRange range, boolean indexed, double rowShare) {}

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
