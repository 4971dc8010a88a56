package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How far a batch build has come.
 *
 * @param filesDone files built, reused or failed so far
 * @param filesTotal files in the batch
 * @param rowsDone rows of the files built so far (reused and failed files not counted)
 * @param elapsed time since the batch started
 */
public record IndexingProgress(int filesDone, int filesTotal, long rowsDone, Duration elapsed) {
  public IndexingProgress {
    requireNonNull(elapsed, "elapsed is null");
  }

  /** Rows built per second of wall time so far. */
  public double rowsPerSecond() {
    double seconds = elapsed.toNanos() / 1e9;
    return seconds <= 0 ? 0 : rowsDone / seconds;
  }
}
