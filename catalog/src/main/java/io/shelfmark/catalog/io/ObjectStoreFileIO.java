package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.catalog.io.FileIOProperties.StreamSettings;
import io.shelfmark.config.cluster.StorageConfig;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Iceberg's {@link FileIO} over Shelfmark's {@link ObjectStore}, so that catalogs read and write
 * table metadata, manifests and data files through the same store (and the same request counters)
 * as the rest of Shelfmark, without Hadoop.
 *
 * <p>Two ways to make one:
 *
 * <ul>
 *   <li>{@link #ObjectStoreFileIO(ObjectStore)} around a store the caller owns and closes; {@link
 *       #close()} leaves that store open. This is what {@code Catalogs} does.
 *   <li>Reflectively with {@value FileIOProperties#SHARED_STORE} naming a store of {@link
 *       SharedObjectStores}, as the Glue catalog does: that store is used and left open.
 *   <li>Reflectively, as Iceberg does for {@code
 *       io-impl=io.shelfmark.catalog.io.ObjectStoreFileIO}: the no-argument constructor, then
 *       {@link #initialize(Map)} builds a store from the {@code shelfmark.*} properties listed in
 *       {@link FileIOProperties}; {@link #close()} closes it.
 * </ul>
 *
 * <p>Reads: {@link #newInputFile(String, long)} makes no request until a stream reads (no HEAD when
 * the length is known); streams read through buffered ranged GETs (see {@link
 * FileIOProperties#READ_BUFFER_SIZE}) and support Iceberg's positional {@code RangeReadable} reads.
 * Writes are staged in a local temporary file and uploaded on close. {@link #deleteFile} of a
 * missing object succeeds, as deleting is idempotent for Iceberg.
 *
 * <p>Paths are {@code s3://bucket/key} ({@code s3a}, {@code s3n} read as {@code s3}), {@code
 * file:/abs/path} or an absolute path, as {@link Location#parse} accepts.
 *
 * <p>Thread safety: safe for concurrent use once initialised (Iceberg shares one FileIO across
 * threads); each stream it opens is for one thread. Serializable as {@link FileIO} requires: a copy
 * rebuilds its store from the properties, so an instance made around a store instance does not
 * travel (its copy fails on first use, saying so).
 */
public final class ObjectStoreFileIO implements FileIO {
  private static final long serialVersionUID = 1L;
  private static final Logger log = LoggerFactory.getLogger(ObjectStoreFileIO.class);

  private Map<String, String> properties = Map.of();
  // Volatile so the per-file paths read them without taking the lock once they are set.
  private transient volatile ObjectStore store;
  private transient boolean ownsStore;
  private transient volatile StreamSettings settings;
  private transient volatile boolean closed;

  /** For Iceberg's reflective loading: {@link #initialize(Map)} must follow. */
  public ObjectStoreFileIO() {}

  /**
   * A FileIO over {@code store}, usable at once with default stream settings; {@link
   * #initialize(Map)} may still set {@code shelfmark.io.*} properties. The caller keeps ownership
   * of {@code store}.
   */
  public ObjectStoreFileIO(ObjectStore store) {
    this.store = requireNonNull(store, "store is null");
    this.ownsStore = false;
  }

  /**
   * Takes the catalog's properties. Without a store given to the constructor, builds one from the
   * {@code shelfmark.storage.*} properties.
   *
   * @throws IllegalArgumentException naming a {@code shelfmark.*} property that is unknown, missing
   *     or malformed
   */
  @Override
  public synchronized void initialize(Map<String, String> newProperties) {
    requireNonNull(newProperties, "newProperties is null");
    FileIOProperties.checkKnown(newProperties);
    StreamSettings newSettings = FileIOProperties.streamSettings(newProperties);
    if (store == null) {
      String shared = newProperties.get(FileIOProperties.SHARED_STORE);
      if (shared != null) {
        store = sharedStore(shared);
        ownsStore = false;
      } else {
        store = openStore(FileIOProperties.storageConfig(newProperties));
        ownsStore = true;
      }
    }
    properties = Map.copyOf(newProperties);
    settings = newSettings;
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String path) {
    requireNonNull(path, "path is null");
    return new ObjectStoreInputFile(store(), path, parse(path), settings().readBufferSize());
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    requireNonNull(path, "path is null");
    if (length < 0) {
      throw new IllegalArgumentException(
          "Cannot read %s: length %s is negative".formatted(path, length));
    }
    return new ObjectStoreInputFile(
        store(), path, parse(path), length, settings().readBufferSize());
  }

  @Override
  public OutputFile newOutputFile(String path) {
    requireNonNull(path, "path is null");
    StreamSettings streamSettings = settings();
    Path tempDirectory =
        streamSettings
            .tempDirectory()
            .orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir")));
    return new ObjectStoreOutputFile(
        store(), path, parse(path), tempDirectory, streamSettings.readBufferSize());
  }

  /**
   * Deletes one object; a missing one is not an error.
   *
   * @throws UncheckedIOException when the store refuses, naming the path
   */
  @Override
  public void deleteFile(String path) {
    requireNonNull(path, "path is null");
    try {
      if (!store().delete(parse(path))) {
        log.debug("Nothing to delete at {}", path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete %s: %s".formatted(path, e.getMessage()), e);
    }
  }

  /** Closes the store when this FileIO built it; a store given to the constructor stays open. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (ownsStore && store != null) {
      try {
        store.close();
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot close the object store of ObjectStoreFileIO: %s".formatted(e.getMessage()), e);
      }
    }
  }

  @Override
  public String toString() {
    return "ObjectStoreFileIO{" + (ownsStore ? "own " : "shared ") + store + "}";
  }

  private ObjectStore store() {
    ObjectStore current = store;
    return current != null && !closed ? current : storeSlow();
  }

  private synchronized ObjectStore storeSlow() {
    if (closed) {
      throw new IllegalStateException("Cannot use ObjectStoreFileIO: it is closed");
    }
    if (store == null) {
      // A fresh instance that was never initialised, or a deserialised copy.
      String shared = properties.get(FileIOProperties.SHARED_STORE);
      if (shared != null) {
        store = sharedStore(shared);
        ownsStore = false;
      } else if (properties.containsKey(FileIOProperties.STORAGE_TYPE)) {
        store = openStore(FileIOProperties.storageConfig(properties));
        ownsStore = true;
      } else {
        throw new IllegalStateException(
            "Cannot use ObjectStoreFileIO: it has no object store (call initialize() with %s set,"
                    .formatted(FileIOProperties.STORAGE_TYPE)
                + " or construct it with an ObjectStore; a copy of one built around a store"
                + " instance cannot rebuild it)");
      }
    }
    return store;
  }

  private static ObjectStore sharedStore(String name) {
    return SharedObjectStores.find(name)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    ("Cannot use FileIO property %s: no object store is registered as %s (it is"
                            + " set by Shelfmark's catalog openers, for a store that is still in"
                            + " use: remove it from the catalog properties)")
                        .formatted(FileIOProperties.SHARED_STORE, name)));
  }

  private StreamSettings settings() {
    StreamSettings current = settings;
    return current != null ? current : settingsSlow();
  }

  private synchronized StreamSettings settingsSlow() {
    if (settings == null) {
      settings =
          properties.isEmpty()
              ? StreamSettings.DEFAULT
              : FileIOProperties.streamSettings(properties);
    }
    return settings;
  }

  private static Location parse(String path) {
    try {
      return Location.parse(path);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Cannot use path %s with ObjectStoreFileIO: %s".formatted(path, e.getMessage()), e);
    }
  }

  private static ObjectStore openStore(StorageConfig config) {
    return ObjectStores.open(config);
  }
}
