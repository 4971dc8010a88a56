package io.shelfmark.cli.bench.run;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One benchmark at a time per data directory: two runs sharing one rebuild the same segment store
 * and node directories under each other (one deleted the other's staging files, and a segment build
 * failed with {@code NoSuchFileException}). An OS file lock on {@code <data-dir>/bench.lock}, held
 * for the run and released when the process ends, however it ends.
 */
public final class DataDirLock implements AutoCloseable {
  static final String FILE = "bench.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
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
    Path file = dataDir.resolve(FILE);
    FileChannel channel =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null; // held by this JVM
    } catch (IOException e) {
      channel.close();
      throw new IOException("Cannot lock the bench data dir " + dataDir + ": " + e, e);
    }
    if (lock == null) {
      String holder = holder(channel);
      channel.close();
      throw new IOException(
          "Cannot use the bench data dir "
              + dataDir.toAbsolutePath()
              + ": another `shelfmark bench`"
              + holder
              + " is using it (wait for it to finish, or pass another --data-dir)");
    }
    channel.truncate(0);
    channel.write(ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(UTF_8)), 0);
    return new DataDirLock(channel, lock);
  }

  private static String holder(FileChannel channel) {
    try {
      ByteBuffer buffer = ByteBuffer.allocate(32);
      channel.read(buffer, 0);
      String pid = new String(buffer.array(), 0, buffer.position(), UTF_8).trim();
      return pid.isEmpty() ? "" : " (process " + pid + ")";
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
