package io.shelfmark.indexbuilder.build;

/**
 * Hears about a batch build's files as they finish, for progress lines and metrics.
 *
 * <p>Calls are serialised (never concurrent) but come from the build threads, in completion order;
 * an implementation should return quickly. An exception thrown here is logged and ignored: it never
 * fails a build.
 */
@FunctionalInterface
public interface IndexingListener {
  /** One file finished: built, reused or failed. */
  void fileDone(FileOutcome outcome, IndexingProgress progress);

  /** A listener that does nothing. */
  static IndexingListener none() {
    return (outcome, progress) -> {};
  }
}
