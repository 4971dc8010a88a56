package io.shelfmark.server.local;

import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;

/**
 * Tells a failure that only says "this thread was interrupted" (a closing node stops the threads
 * opening its segments) from one that says something about the segment or the store, so the first
 * is not reported as a broken segment.
 */
final class Interruptions {
  private static final int MAX_DEPTH = 32;

  private Interruptions() {}

  /**
   * Whether {@code failure}, or a cause of it, is an interruption: {@link InterruptedException},
   * {@link ClosedByInterruptException}, or an {@link InterruptedIOException} other than a {@link
   * SocketTimeoutException} (which is a timeout, not an interruption, despite its type).
   */
  static boolean isInterruption(Throwable failure) {
    // Bounded: a cause chain may loop.
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < MAX_DEPTH; depth++, cause = cause.getCause()) {
      if (cause instanceof InterruptedException
          || cause instanceof ClosedByInterruptException
          || (cause instanceof InterruptedIOException
              && !(cause instanceof SocketTimeoutException))) {
        return true;
      }
    }
    return false;
  }
}
