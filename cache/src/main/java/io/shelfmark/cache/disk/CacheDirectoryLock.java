package io.shelfmark.cache.disk;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive operating-system lock on a cache directory, held while a disk tier has it open. Two
 * processes (or two tiers in one process) sharing a directory would evict each other's files from
 * under their indexes, so the second one is refused with a clear error instead.
 *
 * <p>The lock file holds the owner's process id, for the error message. It is left in place on
 * close: deleting it could race with another process that is acquiring it.
 */
final class CacheDirectoryLock implements Closeable {
  static final String LOCK_FILE_NAME = "cache.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private CacheDirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static CacheDirectoryLock acquire(Path directory) throws IOException {
    Path lockFile = directory.resolve(LOCK_FILE_NAME);
    FileChannel channel =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      channel.close();
      throw new IOException(
          "Cannot open disk cache "
              + directory
              + ": it is already open in this process (close the other cache first, or give each"
              + " cache its own directory)",
          e);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new IOException(
          "Cannot open disk cache "
              + directory
              + ": another process holds its lock "
              + lockFile
              + owner(lockFile)
              + " (give each process its own cache directory, or stop the other process)");
    }
    try {
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(UTF_8)), 0);
    } catch (IOException e) {
      lock.release();
      channel.close();
      throw e;
    }
    return new CacheDirectoryLock(channel, lock);
  }

  private static String owner(Path lockFile) {
    try {
      String pid = Files.readString(lockFile, UTF_8).strip();
      return pid.isEmpty() ? "" : " (held by process " + pid + ")";
    } catch (IOException e) {
      // Only decorates the message of the error being raised; that error is what matters.
      return "";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } finally {
      channel.close();
    }
  }
}
