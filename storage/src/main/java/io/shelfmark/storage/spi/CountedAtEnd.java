package io.shelfmark.storage.spi;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;

/**
 * A {@link ObjectStore.RangeProgress} that counts a ranged read once, at the report of the whole
 * range and before passing that report on: a caller may finish with the bytes, and read the counts,
 * before the read's call returns. {@link #settle} counts a read whose store never reported the
 * whole range. Thread safe.
 */
public final class CountedAtEnd implements ObjectStore.RangeProgress {
  private final IntConsumer count;
  private final int length;
  private final ObjectStore.RangeProgress next;
  private final AtomicBoolean counted = new AtomicBoolean();

  /**
   * @param count receives the read's length, once
   * @param length the length of the range read
   * @param next receives every report, after the count
   */
  public CountedAtEnd(IntConsumer count, int length, ObjectStore.RangeProgress next) {
    this.count = requireNonNull(count, "count is null");
    this.length = length;
    this.next = requireNonNull(next, "next is null");
  }

  @Override
  public void arrived(int filled) {
    if (filled == length) {
      settle();
    }
    next.arrived(filled);
  }

  /** Counts the read unless the report of the whole range already did. */
  public void settle() {
    if (counted.compareAndSet(false, true)) {
      count.accept(length);
    }
  }
}
