package io.shelfmark.storage.coalesce;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.List;

/**
 * The outcome of {@link RangeCoalescer#coalesce}: the reads to issue and, for each requested range
 * (in the order given), where its bytes land among them.
 *
 * @param reads disjoint ranges in increasing offset order, each at most the coalescer's maximum
 *     buffer size; issue one ranged GET per read
 * @param requests one entry per requested range, in the order the caller gave them
 */
public record CoalescedPlan(List<ByteRange> reads, List<CoalescedRead> requests) {
  public CoalescedPlan {
    reads = ImmutableList.copyOf(requireNonNull(reads, "reads is null"));
    requests = ImmutableList.copyOf(requireNonNull(requests, "requests is null"));
  }

  /** Bytes the reads fetch, gaps included. */
  public long bytesRead() {
    long total = 0;
    for (ByteRange read : reads) {
      total += read.length();
    }
    return total;
  }

  /** Bytes the caller asked for, counting overlapping requests once per request. */
  public long bytesRequested() {
    long total = 0;
    for (CoalescedRead request : requests) {
      total += request.requested().length();
    }
    return total;
  }
}
