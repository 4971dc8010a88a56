package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.apache.iceberg.io.PositionOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stages the bytes of one object in a local temporary file and uploads the whole file on {@link
 * #close()}: object stores take whole objects, and a file (unlike memory) bounds nothing but disk
 * for large data files. The temporary file is deleted whether the upload succeeds or not.
 *
 * <p>Nothing is visible in the store before {@link #close()} returns; a stream that is never closed
 * uploads nothing (and leaves its temporary file behind). Not thread safe.
 */
final class ObjectStoreOutputStream extends PositionOutputStream {
  private static final Logger log = LoggerFactory.getLogger(ObjectStoreOutputStream.class);
  private static final int FILE_BUFFER_SIZE = 64 << 10;

  private final ObjectStore store;
  private final Location location;
  private final Path stagingFile;
  private final OutputStream out;
  private long position;
  private boolean closed;

  /**
   * @throws UncheckedIOException when the temporary file cannot be created, naming the directory
   */
  ObjectStoreOutputStream(ObjectStore store, Location location, Path tempDirectory) {
    this.store = requireNonNull(store, "store is null");
    this.location = requireNonNull(location, "location is null");
    requireNonNull(tempDirectory, "tempDirectory is null");
    try {
      this.stagingFile = Files.createTempFile(tempDirectory, "shelfmark-upload-", ".tmp");
      this.out = new BufferedOutputStream(Files.newOutputStream(stagingFile), FILE_BUFFER_SIZE);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot write %s: cannot create a temporary file in %s: %s (set %s to a writable directory)"
              .formatted(location, tempDirectory, e.getMessage(), FileIOProperties.TEMP_DIR),
          e);
    }
  }

  @Override
  public long getPos() {
    return position;
  }

  @Override
  public void write(int value) throws IOException {
    checkOpen();
    out.write(value);
    position++;
  }

  @Override
  public void write(byte[] bytes, int offset, int count) throws IOException {
    Objects.checkFromIndexSize(offset, count, bytes.length);
    checkOpen();
    out.write(bytes, offset, count);
    position += count;
  }

  @Override
  public void flush() throws IOException {
    checkOpen();
    out.flush();
  }

  /** Uploads the staged bytes as the whole object; a second call does nothing. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException failure = null;
    try {
      out.close();
      store.upload(location, stagingFile);
      log.debug("Uploaded {} ({} bytes)", location, position);
    } catch (IOException e) {
      failure = e;
    } finally {
      failure = deleteStagingFile(failure);
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "ObjectStoreOutputStream{" + location + ", " + position + " bytes}";
  }

  /** Deletes the staged file; a failure to do so is added to {@code failure} or becomes it. */
  private IOException deleteStagingFile(IOException failure) {
    try {
      Files.deleteIfExists(stagingFile);
      return failure;
    } catch (IOException e) {
      IOException cannotDelete =
          new IOException(
              "Cannot delete temporary file %s staged for %s: %s (delete it by hand)"
                  .formatted(stagingFile, location, e.getMessage()),
              e);
      if (failure == null) {
        return cannotDelete;
      }
      failure.addSuppressed(cannotDelete);
      return failure;
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("Cannot write %s: the stream is closed".formatted(location));
    }
  }
}
