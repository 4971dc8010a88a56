package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * One object to read. When the length is given (Iceberg passes it for data, delete and manifest
 * files) no request is made until the stream reads; otherwise the first {@link #getLength()},
 * {@link #newStream()} or {@link #exists()} costs one HEAD, and its answer is kept.
 *
 * <p>Thread safe: the cached length is written once (racing HEADs agree).
 */
final class ObjectStoreInputFile implements InputFile {
  private static final long UNKNOWN = -1;

  private final ObjectStore store;
  private final String path;
  private final Location location;
  private final int bufferSize;
  private volatile long length;

  ObjectStoreInputFile(ObjectStore store, String path, Location location, int bufferSize) {
    this(store, path, location, UNKNOWN, bufferSize);
  }

  ObjectStoreInputFile(
      ObjectStore store, String path, Location location, long length, int bufferSize) {
    this.store = requireNonNull(store, "store is null");
    this.path = requireNonNull(path, "path is null");
    this.location = requireNonNull(location, "location is null");
    if (length < UNKNOWN) {
      throw new IllegalArgumentException(
          "Cannot read %s: length %s is negative".formatted(path, length));
    }
    this.length = length;
    this.bufferSize = bufferSize;
  }

  /**
   * @throws NotFoundException when the object does not exist
   * @throws UncheckedIOException when the store cannot be asked, naming the location
   */
  @Override
  public long getLength() {
    long known = length;
    if (known == UNKNOWN) {
      try {
        known = store.stat(location).size();
      } catch (ObjectNotFoundException e) {
        throw notFound(e);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot get the length of %s: %s".formatted(path, e.getMessage()), e);
      }
      length = known;
    }
    return known;
  }

  @Override
  public SeekableInputStream newStream() {
    return new ObjectStoreInputStream(store, location, getLength(), bufferSize);
  }

  @Override
  public String location() {
    return path;
  }

  @Override
  public boolean exists() {
    try {
      length = store.stat(location).size();
      return true;
    } catch (ObjectNotFoundException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot check whether %s exists: %s".formatted(path, e.getMessage()), e);
    }
  }

  @Override
  public String toString() {
    return path;
  }

  private NotFoundException notFound(ObjectNotFoundException cause) {
    NotFoundException e = new NotFoundException("Cannot open %s: the file does not exist", path);
    e.initCause(cause);
    return e;
  }
}
