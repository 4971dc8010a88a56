package io.shelfmark.parquet.read;

import io.shelfmark.config.unit.DataSize;
import io.shelfmark.parquet.metadata.FooterReader;

/**
 * How a {@link ParquetFileReader} turns a plan into requests. Immutable; build with {@link
 * #builder()}, where setting a value twice fails.
 *
 * @param maxMergeDistance ranges closer than this are read with one GET, gap included: a gap costs
 *     transfer time, a request costs a round trip (S3: tens of milliseconds)
 * @param maxBufferSize merged reads stop growing at this size, so a request stays retryable and
 *     parallel reads keep the bandwidth busy
 * @param maxPrefetchBytes reads started ahead of the decoder stop at this many unconsumed bytes;
 *     the read the decoder waits for is always started, so at least one is in flight
 * @param footerTailSize the speculative tail GET that fetches the footer
 * @param chunkReads how a column chunk whose rows are only partly selected is fetched: its selected
 *     pages, its whole span (first to last needed byte) in one range, or whichever the cost model
 *     prefers ({@link ChunkReadChoice})
 * @param requestCost what one more GET costs, in bytes read: the cost model fetches a chunk's span
 *     whole when the requests page selection adds cost more than the bytes it skips
 */
public record ReaderOptions(
    DataSize maxMergeDistance,
    DataSize maxBufferSize,
    DataSize maxPrefetchBytes,
    DataSize footerTailSize,
    ChunkReads chunkReads,
    DataSize requestCost) {
  public static final DataSize DEFAULT_MAX_MERGE_DISTANCE = DataSize.of(1, DataSize.Unit.MEBIBYTE);
  public static final DataSize DEFAULT_MAX_BUFFER_SIZE = DataSize.of(8, DataSize.Unit.MEBIBYTE);
  public static final DataSize DEFAULT_MAX_PREFETCH_BYTES = DataSize.of(64, DataSize.Unit.MEBIBYTE);
  public static final DataSize DEFAULT_FOOTER_TAIL_SIZE =
      DataSize.ofBytes(FooterReader.DEFAULT_TAIL_SIZE);

  /**
   * Default cost of a request: 1 MiB. A GET costs a round trip to first byte (S3: ~20 ms, in which
   * one connection streams 1-2 MB), a per-request charge, and CPU on both ends that bytes read
   * through do not (docs/query-execution.md: 5 more GETs per query took 31% more of this machine's
   * two cores at 20 QPS); the same reasoning sets the coalescer's default merge distance.
   */
  public static final DataSize DEFAULT_REQUEST_COST = DataSize.of(1, DataSize.Unit.MEBIBYTE);

  /** How a partly selected column chunk is fetched. */
  public enum ChunkReads {
    /** Whichever of page selection and the whole span costs less ({@link ChunkReadChoice}). */
    COST,
    /** Always the selected pages only (coalesced as usual). */
    PAGES,
    /**
     * The chunk's whole span (from its first needed byte to its last) whenever that saves a
     * request, whatever the bytes.
     */
    WHOLE
  }

  public ReaderOptions {
    check("max-merge-distance", maxMergeDistance, 0, Long.MAX_VALUE);
    check("max-buffer-size", maxBufferSize, 1, Integer.MAX_VALUE - 8);
    check("max-prefetch-bytes", maxPrefetchBytes, 0, Long.MAX_VALUE);
    check("footer-tail-size", footerTailSize, 8, Integer.MAX_VALUE - 8);
    check("request-cost", requestCost, 0, Long.MAX_VALUE);
    if (chunkReads == null) {
      throw new IllegalArgumentException("Cannot use reader option chunk-reads: null");
    }
  }

  /** These options with chunks fetched as {@code reads} says. */
  public ReaderOptions withChunkReads(ChunkReads reads) {
    return new ReaderOptions(
        maxMergeDistance, maxBufferSize, maxPrefetchBytes, footerTailSize, reads, requestCost);
  }

  /** These options with {@code cost} as a request's cost. */
  public ReaderOptions withRequestCost(DataSize cost) {
    return new ReaderOptions(
        maxMergeDistance, maxBufferSize, maxPrefetchBytes, footerTailSize, chunkReads, cost);
  }

  public static ReaderOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  private static void check(String key, DataSize value, long min, long max) {
    if (value == null) {
      throw new IllegalArgumentException("Cannot use reader option " + key + ": null");
    }
    if (value.bytes() < min || value.bytes() > max) {
      throw new IllegalArgumentException(
          "Cannot use reader option %s: %s (allowed %d to %d bytes)"
              .formatted(key, value, min, max));
    }
  }

  /** Collects options; each may be set once. Not thread safe. */
  public static final class Builder {
    private DataSize maxMergeDistance;
    private DataSize maxBufferSize;
    private DataSize maxPrefetchBytes;
    private DataSize footerTailSize;
    private ChunkReads chunkReads;
    private DataSize requestCost;

    private Builder() {}

    public Builder chunkReads(ChunkReads value) {
      if (chunkReads != null) {
        throw new IllegalStateException(
            "Cannot set reader option chunk-reads twice: it is already %s".formatted(chunkReads));
      }
      chunkReads = value;
      return this;
    }

    public Builder requestCost(DataSize value) {
      requireUnset("request-cost", requestCost);
      requestCost = value;
      return this;
    }

    public Builder maxMergeDistance(DataSize value) {
      requireUnset("max-merge-distance", maxMergeDistance);
      maxMergeDistance = value;
      return this;
    }

    public Builder maxBufferSize(DataSize value) {
      requireUnset("max-buffer-size", maxBufferSize);
      maxBufferSize = value;
      return this;
    }

    public Builder maxPrefetchBytes(DataSize value) {
      requireUnset("max-prefetch-bytes", maxPrefetchBytes);
      maxPrefetchBytes = value;
      return this;
    }

    public Builder footerTailSize(DataSize value) {
      requireUnset("footer-tail-size", footerTailSize);
      footerTailSize = value;
      return this;
    }

    public ReaderOptions build() {
      return new ReaderOptions(
          maxMergeDistance == null ? DEFAULT_MAX_MERGE_DISTANCE : maxMergeDistance,
          maxBufferSize == null ? DEFAULT_MAX_BUFFER_SIZE : maxBufferSize,
          maxPrefetchBytes == null ? DEFAULT_MAX_PREFETCH_BYTES : maxPrefetchBytes,
          footerTailSize == null ? DEFAULT_FOOTER_TAIL_SIZE : footerTailSize,
          chunkReads == null ? ChunkReads.COST : chunkReads,
          requestCost == null ? DEFAULT_REQUEST_COST : requestCost);
    }

    private static void requireUnset(String key, DataSize current) {
      if (current != null) {
        throw new IllegalStateException(
            "Cannot set reader option %s twice: it is already %s".formatted(key, current));
      }
    }
  }
}
