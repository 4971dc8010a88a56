package io.shelfmark.exchange.profile;

import static java.util.Objects.requireNonNull;

/**
 * Under EXPLAIN ANALYZE, whether a file's partly selected column chunks were fetched page by page
 * or whole, and why: the read's cost model ({@code requests × requestCost + bytes}) summed over the
 * chunks it chose for, both ways.
 *
 * @param mode the {@code chunkReads} setting the read had: {@code COST}, {@code PAGES} or {@code
 *     WHOLE}
 * @param requestCost what one more GET was worth in bytes
 * @param chunks partly selected chunks a choice was made for (more than one read page by page)
 * @param chunksReadWhole of them, those fetched as one span
 * @param pageRequests reads their pages take, coalesced
 * @param pageBytes bytes those reads fetch
 * @param wholeRequests reads their spans take
 * @param wholeBytes the spans' bytes
 */
public record ChunkReadProfile(
    String mode,
    long requestCost,
    long chunks,
    long chunksReadWhole,
    long pageRequests,
    long pageBytes,
    long wholeRequests,
    long wholeBytes) {
  public ChunkReadProfile {
    requireNonNull(mode, "mode is null");
  }

  /** The model's cost of the pages: {@code pageRequests × requestCost + pageBytes}. */
  public long pagesCost() {
    return pageRequests * requestCost + pageBytes;
  }

  /** The model's cost of the spans: {@code wholeRequests × requestCost + wholeBytes}. */
  public long wholeCost() {
    return wholeRequests * requestCost + wholeBytes;
  }

  /** These figures with {@code other}'s added (the mode and request cost are this one's). */
  public ChunkReadProfile plus(ChunkReadProfile other) {
    return new ChunkReadProfile(
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
