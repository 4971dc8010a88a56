package io.shelfmark.storage;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One {@link ObjectStore} for both schemes: {@code s3://} locations go to the S3 store, {@code
 * file:} locations to the local one, so callers hold a single store whatever a table's metadata
 * points at. Either store may be absent; a location of a missing scheme fails with a message naming
 * it. The same instance may serve both schemes (a local store with a root does).
 *
 * <p>Both stores must count into one {@link StorageStats} (open them with the same instance, as
 * {@link ObjectStores} does), which is this store's {@link #stats()}.
 *
 * <p>Thread safety: as safe as the stores it routes to. {@link #close()} closes both (once each).
 */
public final class RoutingObjectStore implements ObjectStore {
  private final Optional<ObjectStore> s3;
  private final Optional<ObjectStore> file;
  private final StorageStats stats;

  /**
   * @throws IllegalArgumentException when both are absent, or when they count into different {@link
   *     StorageStats}
   */
  public RoutingObjectStore(Optional<ObjectStore> s3, Optional<ObjectStore> file) {
    this.s3 = requireNonNull(s3, "s3 is null");
    this.file = requireNonNull(file, "file is null");
    if (s3.isEmpty() && file.isEmpty()) {
      throw new IllegalArgumentException("Cannot route locations: no S3 store and no local store");
    }
    if (s3.isPresent() && file.isPresent() && s3.get().stats() != file.get().stats()) {
      throw new IllegalArgumentException(
          "Cannot route between "
              + s3.get()
              + " and "
              + file.get()
              + ": they count into different StorageStats (open both with one StorageStats)");
    }
    this.stats = s3.isPresent() ? s3.get().stats() : file.orElseThrow().stats();
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    return route("read", location).stat(location);
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    return route("read", location).readRange(location, offset, length);
  }

  @Override
  public void readRange(Location location, long offset, RangeBuffers into, RangeProgress progress)
      throws IOException {
    route("read", location).readRange(location, offset, into, progress);
  }

  @Override
  public InputStream open(Location location) throws IOException {
    return route("read", location).open(location);
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    route("write", location).write(location, content);
  }

  @Override
  public void upload(Location location, Path source) throws IOException {
    route("write", location).upload(location, source);
  }

  @Override
  public boolean delete(Location location) throws IOException {
    return route("delete", location).delete(location);
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    return route("list", prefix).list(prefix);
  }

  @Override
  public StorageStats stats() {
    return stats;
  }

  @Override
  public void close() throws IOException {
    try {
      if (s3.isPresent()) {
        s3.get().close();
      }
    } finally {
      if (file.isPresent() && (s3.isEmpty() || file.get() != s3.get())) {
        file.get().close();
      }
    }
  }

  @Override
  public String toString() {
    return "RoutingObjectStore{s3="
        + s3.map(Object::toString).orElse("none")
        + ", file="
        + file.map(Object::toString).orElse("none")
        + "}";
  }

  private ObjectStore route(String verb, Location location) throws StorageException {
    requireNonNull(location, "location is null");
    if (location.scheme().equals("s3")) {
      return s3.orElseThrow(
          () ->
              new StorageException(
                  "Cannot "
                      + verb
                      + " "
                      + location
                      + ": no S3 storage is configured (set storage.type: s3, or use file:"
                      + " locations)"));
    }
    return file.orElseThrow(
        () ->
            new StorageException(
                "Cannot "
                    + verb
                    + " "
                    + location
                    + ": local files are not served by this store (use s3:// locations)"));
  }
}
