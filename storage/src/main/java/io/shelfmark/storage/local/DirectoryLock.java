package io.shelfmark.storage.local;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalLong;

/**
 * An exclusive operating-system lock on a lock file, for a directory one user at a time may own (a
 * disk cache, the benchmark's data dir). The OS drops it when the process ends, however it ends.
 * The file holds the owner's process id, for the refusal's message, and is left in place on close:
 * deleting it could race with a process that is acquiring it.
 */
public final class DirectoryLock implements Closeable {
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** The lock is held: by this process, or by the process {@link #pid()} names when known. */
  public static final class HeldException extends IOException {
    private final boolean thisProcess;
    private final OptionalLong pid;

    HeldException(Path lockFile, boolean thisProcess, OptionalLong pid) {
      super(
          "Cannot lock "
              + lockFile
              + ": "
              + (thisProcess
                  ? "this process holds it"
                  : "another process"
                      + (pid.isPresent() ? " (" + pid.getAsLong() + ")" : "")
                      + " holds it"));
      this.thisProcess = thisProcess;
      this.pid = pid;
    }

    /** Whether this process holds it (another owner in the same JVM). */
    public boolean thisProcess() {
      return thisProcess;
    }

    /** The holder's process id, as it wrote it, when another process holds the lock. */
    public OptionalLong pid() {
      return pid;
    }
  }

  /**
   * Takes the lock on {@code lockFile}, creating the file if needed, and writes this process's id
   * into it.
   *
   * @throws HeldException when this or another process holds it
   * @throws IOException when the file cannot be created, locked or written
   */
  public static DirectoryLock acquire(Path lockFile) throws IOException {
    requireNonNull(lockFile, "lockFile is null");
    FileChannel channel =
        FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      channel.close();
      throw new HeldException(lockFile, true, OptionalLong.empty());
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    if (lock == null) {
      channel.close();
      throw new HeldException(lockFile, false, owner(lockFile));
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
    return new DirectoryLock(channel, lock);
  }

  private static OptionalLong owner(Path lockFile) {
    try {
      return OptionalLong.of(Long.parseLong(Files.readString(lockFile, UTF_8).strip()));
    } catch (IOException | NumberFormatException e) {
      // Only decorates the refusal; the refusal is what matters.
      return OptionalLong.empty();
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
