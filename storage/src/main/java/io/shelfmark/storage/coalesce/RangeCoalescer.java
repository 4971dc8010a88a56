package io.shelfmark.storage.coalesce;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns the byte ranges a read plan needs (Parquet pages, dictionary pages, segment sections) into
 * few ranged GETs: nearby ranges are merged when the gap between them is at most {@code
 * maxMergeDistance}, no read exceeds {@code maxBufferSize} (larger ranges are split into several
 * reads), and each requested range is mapped back to its slice(s) of the merged reads.
 *
 * <p>Guarantees of {@link #coalesce}: the reads are disjoint and sorted, every requested byte lies
 * in exactly one read, bytes outside every requested range are read only inside a merged gap of at
 * most {@code maxMergeDistance}, and no read is longer than {@code maxBufferSize}. Overlapping and
 * duplicate requests are read once. A requested range spans several reads only when the run of
 * touching or overlapping requests it belongs to is longer than {@code maxBufferSize}.
 *
 * <p>Example with the defaults: pages at {@code [0, 100K)}, {@code [600K, 700K)} and {@code [5M,
 * 5.1M)} become two reads, {@code [0, 700K)} (a 500K gap is cheaper to read than a second request)
 * and {@code [5M, 5.1M)}.
 *
 * <p>Pure and immutable: safe to share between threads.
 */
public final class RangeCoalescer {
  /**
   * Default gap worth reading through: 1 MiB. A new S3 request costs ~20 ms before its first byte
   * (plus a per-request charge), and one connection streams ~50-100 MB/s, so ~1-2 MB flow in the
   * time a second request would take to start: reading a gap up to about that size is no slower
   * than skipping it, and saves a request.
   */
  public static final long DEFAULT_MAX_MERGE_DISTANCE = 1L << 20;

  /**
   * Default largest read: 8 MiB. Big enough that per-request latency is a small share of the
   * transfer (~100 ms at 80 MB/s against ~20 ms to first byte), small enough that a large column
   * chunk is fetched as several parallel GETs over separate connections and that one read's buffer
   * stays modest in memory and in the cache.
   */
  public static final long DEFAULT_MAX_BUFFER_SIZE = 8L << 20;

  /** Reads land in one {@code byte[]}, so none may exceed what an array holds. */
  public static final long MAX_BUFFER_SIZE_LIMIT = Integer.MAX_VALUE - 8;

  private static final RangeCoalescer DEFAULTS =
      new RangeCoalescer(DEFAULT_MAX_MERGE_DISTANCE, DEFAULT_MAX_BUFFER_SIZE);

  private final long maxMergeDistance;
  private final long maxBufferSize;

  /**
   * @param maxMergeDistance the largest gap between two ranges that is read rather than skipped (0
   *     merges only touching or overlapping ranges)
   * @param maxBufferSize the largest single read, 1 to {@link #MAX_BUFFER_SIZE_LIMIT} bytes
   */
  public RangeCoalescer(long maxMergeDistance, long maxBufferSize) {
    if (maxMergeDistance < 0) {
      throw new IllegalArgumentException(
          "Cannot use max-merge-distance: " + maxMergeDistance + " (expected 0 or more bytes)");
    }
    if (maxBufferSize < 1 || maxBufferSize > MAX_BUFFER_SIZE_LIMIT) {
      throw new IllegalArgumentException(
          "Cannot use max-buffer-size: "
              + maxBufferSize
              + " (expected 1 to "
              + MAX_BUFFER_SIZE_LIMIT
              + " bytes)");
    }
    this.maxMergeDistance = maxMergeDistance;
    this.maxBufferSize = maxBufferSize;
  }

  /** A coalescer with {@link #DEFAULT_MAX_MERGE_DISTANCE} and {@link #DEFAULT_MAX_BUFFER_SIZE}. */
  public static RangeCoalescer defaults() {
    return DEFAULTS;
  }

  public long maxMergeDistance() {
    return maxMergeDistance;
  }

  public long maxBufferSize() {
    return maxBufferSize;
  }

  /**
   * Plans the reads for {@code requested} (any order, duplicates and overlaps allowed, empty ranges
   * allowed and mapped to no slice).
   */
  public CoalescedPlan coalesce(List<ByteRange> requested) {
    requireNonNull(requested, "requested is null");
    ByteRange[] sorted = requested.toArray(new ByteRange[0]);
    for (int i = 0; i < sorted.length; i++) {
      requireNonNull(sorted[i], "requested range is null");
    }
    Arrays.sort(sorted);
    List<ByteRange> reads = planReads(union(sorted));
    List<CoalescedRead> mapped = new ArrayList<>(requested.size());
    for (ByteRange range : requested) {
      mapped.add(map(range, reads));
    }
    return new CoalescedPlan(reads, mapped);
  }

  /** Merges sorted ranges that overlap or touch into disjoint runs; drops empty ranges. */
  private static List<ByteRange> union(ByteRange[] sorted) {
    List<ByteRange> runs = new ArrayList<>();
    long start = -1;
    long end = -1;
    for (ByteRange range : sorted) {
      if (range.isEmpty()) {
        continue;
      }
      if (start >= 0 && range.offset() <= end) {
        end = Math.max(end, range.end());
        continue;
      }
      if (start >= 0) {
        runs.add(ByteRange.between(start, end));
      }
      start = range.offset();
      end = range.end();
    }
    if (start >= 0) {
      runs.add(ByteRange.between(start, end));
    }
    return runs;
  }

  /**
   * Greedy over the disjoint runs: extend the current read over the next run while the gap is at
   * most maxMergeDistance and the read stays within maxBufferSize; otherwise start a new read at
   * the run (a gap is never read at the start of a read). A run longer than maxBufferSize is cut
   * into maxBufferSize pieces, and its last piece may absorb the runs after it.
   */
  private List<ByteRange> planReads(List<ByteRange> runs) {
    List<ByteRange> reads = new ArrayList<>();
    long start = -1;
    long end = -1;
    for (ByteRange run : runs) {
      if (start >= 0
          && run.offset() - end <= maxMergeDistance
          && run.end() - start <= maxBufferSize) {
        end = run.end();
        continue;
      }
      if (start >= 0) {
        reads.add(ByteRange.between(start, end));
      }
      start = run.offset();
      end = run.end();
      while (end - start > maxBufferSize) {
        reads.add(new ByteRange(start, maxBufferSize));
        start += maxBufferSize;
      }
    }
    if (start >= 0) {
      reads.add(ByteRange.between(start, end));
    }
    return reads;
  }

  private static CoalescedRead map(ByteRange range, List<ByteRange> reads) {
    if (range.isEmpty()) {
      return new CoalescedRead(range, List.of());
    }
    List<CoalescedRead.Slice> slices = new ArrayList<>(1);
    int index = lastReadStartingAtOrBefore(reads, range.offset());
    long position = range.offset();
    while (position < range.end()) {
      ByteRange read = reads.get(index);
      if (position < read.offset() || position >= read.end()) {
        // The reads cover every requested byte by construction; this is a bug, not bad input.
        throw new IllegalStateException(
            "Cannot map " + range + ": byte " + position + " is not in read " + read);
      }
      long length = Math.min(range.end(), read.end()) - position;
      slices.add(new CoalescedRead.Slice(index, position - read.offset(), length));
      position += length;
      index++;
    }
    return new CoalescedRead(range, slices);
  }

  private static int lastReadStartingAtOrBefore(List<ByteRange> reads, long offset) {
    int low = 0;
    int high = reads.size() - 1;
    while (low < high) {
      int middle = (low + high + 1) >>> 1;
      if (reads.get(middle).offset() <= offset) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return low;
  }

  @Override
  public String toString() {
    return "RangeCoalescer{maxMergeDistance="
        + maxMergeDistance
        + ", maxBufferSize="
        + maxBufferSize
        + "}";
  }
}
