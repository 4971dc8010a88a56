package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.plan.PagePlanner.PlannedRange;
import io.shelfmark.parquet.plan.RowGroupAccess;
import io.shelfmark.storage.coalesce.ByteRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses, per partly selected column chunk, between fetching its selected pages and fetching its
 * whole span (from its first needed byte to its last) in one range. Pure: from the ranges a plan
 * fetches and the reader options, no I/O.
 *
 * <p>The cost model, per chunk, in bytes: {@code cost = requests × requestCost + bytes fetched}.
 *
 * <ul>
 *   <li>Pages: the chunk's ranges to fetch, coalesced as the reader coalesces them (gaps up to
 *       {@code max-merge-distance} read through, reads cut at {@code max-buffer-size}): {@code n}
 *       reads of {@code b} bytes.
 *   <li>Whole: one range over the chunk's span {@code s}, cut at {@code max-buffer-size}: {@code
 *       ceil(s / max-buffer-size)} reads of {@code s} bytes.
 * </ul>
 *
 * The whole span is fetched when its cost is lower and it saves at least one request. Only the
 * fetching changes: the same pages are decoded either way (the gaps' bytes are read through and
 * dropped, as a coalesced gap's are). Chunks of scanned row groups are contiguous already. The
 * model looks at one chunk at a time: ranges of neighbouring chunks that the coalescer joins are
 * not credited, so it may prefer pages where the whole read would have merged with a neighbour.
 *
 * <p>Example with the query defaults (64 KiB merge distance, 2 MiB reads, 1 MiB per request): a 1
 * MiB chunk of 100 pages whose selected rows fall in 6 pages 100 KiB apart costs 6 × 1 MiB + 60 KiB
 * page by page and 1 MiB + 1 MiB whole: whole. The same chunk with the 6 pages side by side is one
 * read either way: pages.
 */
final class ChunkReadChoice {
  private ChunkReadChoice() {}

  /**
   * The spans to fetch whole, per {@code options.chunkReads()}, and the figures of the choice.
   *
   * @param planned the plan's ranges, grouped by chunk as {@link
   *     io.shelfmark.parquet.plan.PagePlanner#ranges} lists them
   * @param fetched which of them are fetched (not kept, not already held), by position
   */
  static Choice choose(List<PlannedRange> planned, boolean[] fetched, ReaderOptions options) {
    requireNonNull(planned, "planned is null");
    requireNonNull(options, "options is null");
    if (options.chunkReads() == ReaderOptions.ChunkReads.PAGES) {
      return new Choice(List.of(), ChunkReadFigures.none(options));
    }
    List<ByteRange> spans = new ArrayList<>();
    long[] figures = new long[5]; // chunks, page reads, page bytes, whole reads, whole bytes
    int start = 0;
    while (start < planned.size()) {
      int end = start + 1;
      PlannedRange first = planned.get(start);
      while (end < planned.size()
          && planned.get(end).rowGroup() == first.rowGroup()
          && planned.get(end).column() == first.column()) {
        end++;
      }
      if (first.access() == RowGroupAccess.SELECTION) {
        List<ByteRange> chunk = new ArrayList<>(end - start);
        for (int i = start; i < end; i++) {
          if (fetched[i]) {
            chunk.add(planned.get(i).range());
          }
        }
        if (chunk.size() > 1 && wholeIsCheaper(chunk, options, figures)) {
          spans.add(span(chunk));
        }
      }
      start = end;
    }
    return new Choice(
        List.copyOf(spans),
        new ChunkReadFigures(
            options.chunkReads().name(),
            options.requestCost().bytes(),
            (int) figures[0],
            spans.size(),
            figures[1],
            figures[2],
            figures[3],
            figures[4]));
  }

  /** The spans to fetch whole, and why. */
  record Choice(List<ByteRange> spans, ChunkReadFigures figures) {}

  /** The spans to fetch whole (see {@link #choose}). */
  static List<ByteRange> wholeSpans(
      List<PlannedRange> planned, boolean[] fetched, ReaderOptions options) {
    return choose(planned, fetched, options).spans();
  }

  /** Whether one read of the chunk's span costs less than its ranges coalesced. */
  static boolean wholeIsCheaper(List<ByteRange> chunk, ReaderOptions options) {
    return wholeIsCheaper(chunk, options, new long[5]);
  }

  /**
   * As {@link #wholeIsCheaper(List, ReaderOptions)}, adding to {@code figures} the chunk's count
   * and both ways' reads and bytes when the choice is made (both ways need more than one read).
   */
  private static boolean wholeIsCheaper(
      List<ByteRange> chunk, ReaderOptions options, long[] figures) {
    List<ByteRange> reads = Coalescing.merge(chunk, options);
    ByteRange span = span(chunk);
    long maxBuffer = options.maxBufferSize().bytes();
    long wholeReads = (span.length() + maxBuffer - 1) / maxBuffer;
    if (wholeReads >= reads.size()) {
      return false;
    }
    long pageBytes = 0;
    for (ByteRange read : reads) {
      pageBytes += read.length();
    }
    figures[0]++;
    figures[1] += reads.size();
    figures[2] += pageBytes;
    figures[3] += wholeReads;
    figures[4] += span.length();
    if (options.chunkReads() == ReaderOptions.ChunkReads.WHOLE) {
      return true;
    }
    long requestCost = options.requestCost().bytes();
    double pagesCost = (double) reads.size() * requestCost + pageBytes;
    double wholeCost = (double) wholeReads * requestCost + span.length();
    return wholeCost < pagesCost;
  }

  private static ByteRange span(List<ByteRange> ranges) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (ByteRange range : ranges) {
      start = Math.min(start, range.offset());
      end = Math.max(end, range.end());
    }
    return ByteRange.between(start, end);
  }
}
