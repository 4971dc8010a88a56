package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

/**
 * Why a read fetched its partly selected column chunks page by page or whole ({@link
 * ChunkReadChoice}): the two costs of the chunks it chose between, summed over them, in the model's
 * terms ({@code requests × requestCost + bytes}).
 *
 * @param mode the {@code chunk-reads} setting: {@code COST}, {@code PAGES} (no choice made, no
 *     figures) or {@code WHOLE}
 * @param requestCost what one more GET is worth in bytes
 * @param chunks partly selected chunks with more than one range to fetch: those a choice was made
 *     for
 * @param chunksReadWhole of them, those fetched as one span
 * @param pageRequests the reads their pages would take, coalesced as the reader coalesces them
 * @param pageBytes the bytes those reads would fetch
 * @param wholeRequests the reads their spans would take (cut at {@code max-buffer-size})
 * @param wholeBytes the spans' bytes
 */
public record ChunkReadFigures(
    String mode,
    long requestCost,
    int chunks,
    int chunksReadWhole,
    long pageRequests,
    long pageBytes,
    long wholeRequests,
    long wholeBytes) {
  public ChunkReadFigures {
    requireNonNull(mode, "mode is null");
  }

  /** No chunk to choose for. */
  public static ChunkReadFigures none(ReaderOptions options) {
    return new ChunkReadFigures(
        options.chunkReads().name(), options.requestCost().bytes(), 0, 0, 0, 0, 0, 0);
  }

  /** The model's cost of fetching the chunks page by page. */
  public long pagesCost() {
    return pageRequests * requestCost + pageBytes;
  }

  /** The model's cost of fetching each chunk's span whole. */
  public long wholeCost() {
    return wholeRequests * requestCost + wholeBytes;
  }

  /** These figures with {@code other}'s added (several reads of one file). */
  public ChunkReadFigures plus(ChunkReadFigures other) {
    return new ChunkReadFigures(
        mode,
        requestCost,
        chunks + other.chunks,
        chunksReadWhole + other.chunksReadWhole,
        pageRequests + other.pageRequests,
        pageBytes + other.pageBytes,
        wholeRequests + other.wholeRequests,
        wholeBytes + other.wholeBytes);
  }
}
