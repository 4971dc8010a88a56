package io.shelfmark.cli.bench.run;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.local.DirectoryLock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One benchmark at a time per data directory: two runs sharing one rebuild the same segment store
 * and node directories under each other (one deleted the other's staging files, and a segment build
 * failed with {@code NoSuchFileException}). A {@link DirectoryLock} on {@code
 * <data-dir>/bench.lock}, held for the run.
 */
public final class DataDirLock implements AutoCloseable {
  static final String FILE = "bench.lock";

  private final DirectoryLock lock;

  private DataDirLock(DirectoryLock lock) {
    this.lock = lock;
  }

  /**
   * Takes the lock of {@code dataDir}, creating the directory if needed.
   *
   * @throws IOException naming the directory and the holder's process id when another run holds it,
   *     or when the lock file cannot be written
   */
  public static DataDirLock acquire(Path dataDir) throws IOException {
    requireNonNull(dataDir, "dataDir is null");
    Files.createDirectories(dataDir);
    try {
      return new DataDirLock(DirectoryLock.acquire(dataDir.resolve(FILE)));
    } catch (DirectoryLock.HeldException e) {
      long holder = e.thisProcess() ? ProcessHandle.current().pid() : e.pid().orElse(-1);
      throw new IOException(
          "Cannot use the bench data dir "
              + dataDir.toAbsolutePath()
              + ": another `shelfmark bench`"
              + (holder >= 0 ? " (process " + holder + ")" : "")
              + " is using it (wait for it to finish, or pass another --data-dir)",
          e);
    }
  }

  @Override
  public void close() throws IOException {
    lock.close();
  }
}
