package io.shelfmark.storage.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file so that readers see the old content or the new, never a mix: the bytes go to a
 * temporary file in the same directory (same filesystem, so the move is a rename), are forced to
 * disk, and the temporary file is then moved over the target atomically.
 */
final class AtomicFileWriter {
  private AtomicFileWriter() {}

  static void write(Path target, byte[] content) throws IOException {
    Path temporary = temporaryFor(target);
    try {
      try (FileChannel channel =
          FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW)) {
        ByteBuffer buffer = ByteBuffer.wrap(content);
        while (buffer.hasRemaining()) {
          channel.write(buffer);
        }
        channel.force(true);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      cleanUp(temporary, e);
      throw e;
    }
  }

  static void copy(Path source, Path target) throws IOException {
    Path temporary = temporaryFor(target);
    try {
      // Files.copy streams through a small buffer (or the kernel): never the whole file in memory.
      Files.copy(source, temporary);
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException | RuntimeException e) {
      cleanUp(temporary, e);
      throw e;
    }
  }

  /** Removes a failed write's temporary file; a failure to do so rides along with the cause. */
  private static void cleanUp(Path temporary, Exception failure) {
    try {
      Files.deleteIfExists(temporary);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  /**
   * A hidden name in the target's directory, unique per write, skipped by listings. Not {@code
   * Files.createTempFile}: its files are private to the owner (0600), and the object would keep
   * that mode after the move.
   */
  private static Path temporaryFor(Path target) throws IOException {
    Path directory = target.getParent();
    Files.createDirectories(directory);
    String unique = Long.toHexString(ThreadLocalRandom.current().nextLong());
    return directory.resolve(
        "." + target.getFileName() + "." + unique + LocalObjectStore.TEMPORARY_SUFFIX);
  }
}
