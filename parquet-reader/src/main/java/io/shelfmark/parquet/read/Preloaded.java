package io.shelfmark.parquet.read;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.coalesce.ByteRange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * File bytes a read already holds (the footer's speculative tail, walked column chunks), so ranges
 * inside them are served without a request. Immutable.
 *
 * @param range where the bytes lie in the file
 * @param bytes exactly those bytes, positioned at 0
 */
record Preloaded(ByteRange range, ByteBuffer bytes) {
  Preloaded {
    requireNonNull(range, "range is null");
    requireNonNull(bytes, "bytes is null");
    if (bytes.remaining() != range.length()) {
      throw new IllegalArgumentException(
          "Cannot hold %s: %d bytes given".formatted(range, bytes.remaining()));
    }
  }

  /** The bytes of {@code wanted}, which must lie inside this range, as a buffer at position 0. */
  ByteBuffer slice(ByteRange wanted) {
    return bytes.slice((int) (wanted.offset() - range.offset()), (int) wanted.length());
  }

  /**
   * The held bytes containing {@code wanted}, if any.
   *
   * <p>{@code sorted} is ordered by offset, and no entry lies inside another (see {@link #merge}).
   * Then the last entry starting at or before {@code wanted} is the only candidate: an earlier
   * entry that contains {@code wanted} overlaps the later one, which, not lying inside it, ends
   * even further and contains {@code wanted} too.
   */
  static Optional<ByteBuffer> find(List<Preloaded> sorted, ByteRange wanted) {
    int low = 0;
    int high = sorted.size() - 1;
    Preloaded candidate = null;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (sorted.get(mid).range().offset() <= wanted.offset()) {
        candidate = sorted.get(mid);
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (candidate != null && candidate.range().contains(wanted)) {
      return Optional.of(candidate.slice(wanted));
    }
    return Optional.empty();
  }

  /** {@code first} and {@code second} in one list sorted by offset, for {@link #find}. */
  static List<Preloaded> merge(List<Preloaded> first, List<Preloaded> second) {
    List<Preloaded> all = new ArrayList<>(first.size() + second.size());
    all.addAll(first);
    all.addAll(second);
    all.sort((a, b) -> a.range().compareTo(b.range()));
    return List.copyOf(all);
  }
}
