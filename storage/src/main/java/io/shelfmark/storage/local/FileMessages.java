package io.shelfmark.storage.local;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.StorageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Messages the local store shares between its operations. */
final class FileMessages {
  private FileMessages() {}

  static String pastEnd(Location location, long offset, int length, long size) {
    return "Cannot read "
        + location
        + ": range ["
        + offset
        + ", "
        + (offset + length)
        + ") is past the end of the object of "
        + size
        + " bytes (read within its size; the object may have been replaced by a shorter one)";
  }

  /** The size of a file to upload, or an error naming the file when it cannot be read. */
  static long sizeOfUpload(Path file, Location location) throws StorageException {
    try {
      if (!Files.isRegularFile(file)) {
        throw new NoSuchFileException(file.toString());
      }
      return Files.size(file);
    } catch (IOException e) {
      throw new StorageException(
          "Cannot upload "
              + file
              + " to "
              + location
              + ": "
              + file
              + " is not a readable file (check the path)",
          e);
    }
  }
}
