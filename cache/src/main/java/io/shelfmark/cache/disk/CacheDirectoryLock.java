package io.shelfmark.cache.disk;

import io.shelfmark.storage.local.DirectoryLock;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An exclusive operating-system lock on a cache directory, held while a disk tier has it open. Two
 * processes (or two tiers in one process) sharing a directory would evict each other's files from
 * under their indexes, so the second one is refused with a clear error instead.
 */
final class CacheDirectoryLock implements Closeable {
  static final String LOCK_FILE_NAME = "cache.lock";

  private final DirectoryLock lock;

  private CacheDirectoryLock(DirectoryLock lock) {
    this.lock = lock;
  }

  static CacheDirectoryLock acquire(Path directory) throws IOException {
    Path lockFile = directory.resolve(LOCK_FILE_NAME);
    try {
      return new CacheDirectoryLock(DirectoryLock.acquire(lockFile));
    } catch (DirectoryLock.HeldException e) {
      if (e.thisProcess()) {
        throw new IOException(
            "Cannot open disk cache "
                + directory
                + ": it is already open in this process (close the other cache first, or give each"
                + " cache its own directory)",
            e);
      }
      throw new IOException(
          "Cannot open disk cache "
              + directory
              + ": another process holds its lock "
              + lockFile
              + (e.pid().isPresent() ? " (held by process " + e.pid().getAsLong() + ")" : "")
              + " (give each process its own cache directory, or stop the other process)",
          e);
    }
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }
}
