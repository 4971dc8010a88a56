package io.shelfmark.broker.auth;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs failed authentications at WARN with the client's address, at most {@code maxLines} per
 * window: a brute-force attempt sends thousands of failures a minute and must not flood the log (or
 * the disk under it). What is left out is counted and reported once the next window starts.
 *
 * <p>Thread safe.
 */
public final class FailureLog {
  private static final Logger log = LoggerFactory.getLogger(FailureLog.class);

  public static final int DEFAULT_MAX_LINES = 10;
  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(1);

  private final int maxLines;
  private final long windowNanos;
  private final LongSupplier nanoTime;
  private final Sink sink;
  private long windowStart;
  private int lines;
  private long suppressed;

  /** Where lines go: the logger in production, a list in tests. */
  @FunctionalInterface
  public interface Sink {
    void warn(String line);
  }

  public FailureLog(int maxLines, Duration window, LongSupplier nanoTime, Sink sink) {
    if (maxLines < 1) {
      throw new IllegalArgumentException("maxLines must be at least 1: " + maxLines);
    }
    this.maxLines = maxLines;
    this.windowNanos = requireNonNull(window, "window is null").toNanos();
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.sink = requireNonNull(sink, "sink is null");
    this.windowStart = nanoTime.getAsLong();
  }

  /** Ten lines a minute to this class's logger. */
  public static FailureLog toLogger() {
    return new FailureLog(DEFAULT_MAX_LINES, DEFAULT_WINDOW, System::nanoTime, log::warn);
  }

  /** Records one failure from {@code client} (an address); {@code detail} never holds a secret. */
  public void failed(String client, String detail) {
    String line = null;
    String summary = null;
    synchronized (this) {
      long now = nanoTime.getAsLong();
      if (now - windowStart >= windowNanos) {
        if (suppressed > 0) {
          summary =
              "Failed authentication: "
                  + suppressed
                  + " more failures were not logged in the last window (at most "
                  + maxLines
                  + " lines per "
                  + Duration.ofNanos(windowNanos).toSeconds()
                  + " s)";
        }
        windowStart = now;
        lines = 0;
        suppressed = 0;
      }
      if (lines < maxLines) {
        lines++;
        line = "Failed authentication from " + client + ": " + detail;
      } else {
        suppressed++;
      }
    }
    // Outside the lock: a slow appender must not serialize every failing request behind it.
    if (summary != null) {
      sink.warn(summary);
    }
    if (line != null) {
      sink.warn(line);
    }
  }
}
