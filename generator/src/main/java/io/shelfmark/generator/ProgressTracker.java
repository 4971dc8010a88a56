package io.shelfmark.generator;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts rows across writer threads and forwards progress to a {@link ProgressListener} at most
 * every {@code step} rows, serialized and strictly increasing, as the listener's contract says.
 * Thread-safe.
 */
final class ProgressTracker {
  private final ProgressListener listener;
  private final long totalRows;
  private final long step;
  private final AtomicLong written = new AtomicLong();
  private long reported;

  ProgressTracker(ProgressListener listener, long totalRows) {
    this.listener = requireNonNull(listener, "listener is null");
    this.totalRows = totalRows;
    this.step = Math.max(1, totalRows / 1000);
  }

  /** Records that {@code rows} more rows were written. */
  void add(long rows) {
    long now = written.addAndGet(rows);
    if (now / step != (now - rows) / step || now == totalRows) {
      report(now);
    }
  }

  private synchronized void report(long now) {
    // Another thread may have reported a larger count meanwhile: never go backwards.
    if (now > reported) {
      reported = now;
      listener.rowsWritten(now, totalRows);
    }
  }
}
