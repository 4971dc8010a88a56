package io.shelfmark.indexbuilder.store;

import static java.util.Objects.requireNonNull;

import com.google.common.hash.Hashing;
import io.shelfmark.indexbuilder.spec.SegmentSpec;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.read.BitmapCache;
import io.shelfmark.segment.read.Segment;
import io.shelfmark.segment.source.MappedSegmentSource;
import io.shelfmark.segment.source.ObjectStoreSegmentSource;
import io.shelfmark.storage.ObjectStores;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Where segments live: an object-store prefix ({@code s3://bucket/_shelfmark/segments/}) or a local
 * directory, with one deterministic location per data file and spec:
 *
 * <pre>
 *   &lt;prefix&gt;/&lt;table&gt;/&lt;spec fingerprint&gt;/&lt;sha-256 of the data file path, 32 hex&gt;-&lt;file size&gt;.shfm
 *   s3://lake/_shelfmark/segments/obs.metrics/3f2a9c0d1e7b/5e1f…c2-41833210.shfm
 * </pre>
 *
 * The table is its qualified name (characters other than letters, digits, {@code .}, {@code _} and
 * {@code -} become {@code _}); the fingerprint changes whenever the spec would build a different
 * segment, so a changed table config never picks up segments built for the old one; the data file
 * is named by a hash of its path (paths are long and may hold any character) and its size (Iceberg
 * data files never change in place, so path and size identify the content).
 *
 * <p>Atomicity: {@link #write} makes a segment visible whole or not at all — S3 shows an object
 * only once its single PUT or its multipart upload completes, and the local store writes a hidden
 * temporary file and renames it. Two writers of the same location race and the last one wins, which
 * is harmless: both wrote the segment of the same file and spec. {@link #pin} downloads to a
 * temporary file in the target directory and renames it, so a pinned file is never partial. {@link
 * #exists} and {@link #list} are point-in-time answers; nothing here locks.
 *
 * <p>Thread safe as its object store is. Does not own the store: closing it is the caller's job.
 */
public final class SegmentStore {
  /** The segment file extension. */
  public static final String EXTENSION = ".shfm";

  private final ObjectStore store;
  private final Location prefix;

  /**
   * @param store where segments are written and read
   * @param prefix the segment store's root, such as {@code s3://lake/_shelfmark/segments/}
   */
  public SegmentStore(ObjectStore store, Location prefix) {
    this.store = requireNonNull(store, "store is null");
    requireNonNull(prefix, "prefix is null");
    this.prefix =
        prefix.key().isEmpty() || prefix.key().endsWith("/")
            ? prefix
            : new Location(prefix.scheme(), prefix.bucket(), prefix.key() + "/");
  }

  /**
   * The segment store a cluster config's {@code segment-store} names ({@code s3://bucket/prefix} or
   * a local directory), read through {@code store}.
   */
  public static SegmentStore configured(ObjectStore store, String segmentStore) {
    requireNonNull(segmentStore, "segmentStore is null");
    String location = segmentStore;
    if (location.startsWith("/")) {
      location = Path.of(location).toAbsolutePath() + "/";
    }
    return new SegmentStore(
        store, Location.parse(location.endsWith("/") ? location : location + "/"));
  }

  /** A segment store in a local directory, through a store for local files. */
  public static SegmentStore inDirectory(Path directory) {
    Path absolute = directory.toAbsolutePath().normalize();
    return new SegmentStore(ObjectStores.local(), Location.parse(absolute + "/"));
  }

  public ObjectStore objectStore() {
    return store;
  }

  public Location prefix() {
    return prefix;
  }

  /** The directory of one table's segments built from {@code spec}, ending with a slash. */
  public Location specDirectory(SegmentSpec spec) {
    return prefix.resolve(safe(spec.table()) + "/" + spec.fingerprint() + "/");
  }

  /** Where the segment of the data file at {@code dataFilePath} of {@code fileSize} bytes lives. */
  public Location locationOf(SegmentSpec spec, String dataFilePath, long fileSize) {
    return specDirectory(spec).resolve(segmentName(dataFilePath, fileSize));
  }

  /** {@code <sha-256 of the path, 32 hex>-<size>.shfm}. */
  public static String segmentName(String dataFilePath, long fileSize) {
    requireNonNull(dataFilePath, "dataFilePath is null");
    if (fileSize < 0) {
      throw new IllegalArgumentException(
          "Cannot name the segment of " + dataFilePath + ": negative size " + fileSize);
    }
    String hash =
        Hashing.sha256()
            .hashString(dataFilePath, StandardCharsets.UTF_8)
            .toString()
            .substring(0, 32);
    return hash + "-" + fileSize + EXTENSION;
  }

  private static String safe(String table) {
    return table.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** Uploads a finished segment file; it becomes visible whole (see the class documentation). */
  public void write(Location location, Path segmentFile) throws IOException {
    store.upload(requireNonNull(location, "location is null"), segmentFile);
  }

  /** Writes a segment held in memory; it becomes visible whole. */
  public void write(Location location, byte[] segment) throws IOException {
    store.write(requireNonNull(location, "location is null"), segment);
  }

  /** The segment's size and tag, empty when there is none: one HEAD. */
  public Optional<ObjectInfo> find(Location location) throws IOException {
    try {
      return Optional.of(store.stat(location));
    } catch (ObjectNotFoundException e) {
      return Optional.empty();
    }
  }

  /** Whether a segment exists at {@code location}: one HEAD. */
  public boolean exists(Location location) throws IOException {
    return find(location).isPresent();
  }

  /**
   * The segments present for {@code spec}, with their sizes, in one listing (a table's worth of
   * HEADs avoided). A missing directory or bucket lists as empty.
   */
  public Map<Location, Long> list(SegmentSpec spec) throws IOException {
    Map<Location, Long> found = new HashMap<>();
    List<ObjectInfo> objects;
    try {
      objects = store.list(specDirectory(spec));
    } catch (ObjectNotFoundException e) {
      return found;
    }
    for (ObjectInfo object : objects) {
      if (object.location().key().endsWith(EXTENSION)) {
        found.put(object.location(), object.size());
      }
    }
    return found;
  }

  /** Deletes a segment; false when there was none. */
  public boolean delete(Location location) throws IOException {
    return store.delete(location);
  }

  /**
   * Opens a segment for ranged reads from the store ("no local storage"): one HEAD for its size,
   * then one GET for its tail. The caller closes the segment; the store stays open.
   */
  public Segment open(Location location, IndexService indexes) throws IOException {
    return Segment.open(ObjectStoreSegmentSource.open(store, location), indexes);
  }

  /** Opens a segment whose size is known (from the controller's records): no HEAD. */
  public Segment open(Location location, long size, IndexService indexes) throws IOException {
    return Segment.open(new ObjectStoreSegmentSource(store, location, size), indexes);
  }

  /**
   * Downloads a segment into {@code localDirectory} for memory-mapping, unless already there with
   * the same size. The file lands under its path below the store's prefix (so segments of two specs
   * never collide), through a temporary file and an atomic rename: a reader never sees a partial
   * file, and concurrent pins of the same segment each rename a whole copy.
   *
   * @return the local file; open it with {@link #openPinned}
   */
  public Path pin(Location location, Path localDirectory) throws IOException {
    requireNonNull(localDirectory, "localDirectory is null");
    Path target = localDirectory.resolve(relativePath(location)).normalize();
    if (!target.startsWith(localDirectory.normalize())) {
      throw new IllegalArgumentException(
          "Cannot pin segment %s: it would land outside %s".formatted(location, localDirectory));
    }
    long size = store.stat(location).size();
    if (Files.isRegularFile(target) && Files.size(target) == size) {
      return target;
    }
    Files.createDirectories(target.getParent());
    Path temporary =
        target.resolveSibling(
            "."
                + target.getFileName()
                + "."
                + Long.toHexString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
    try {
      try (InputStream in = store.open(location)) {
        Files.copy(in, temporary);
      }
      long copied = Files.size(temporary);
      if (copied != size) {
        throw new IOException(
            "Cannot pin segment %s: downloaded %d bytes but it has %d (it changed during the"
                    .formatted(location, copied, size)
                + " download; pin it again)");
      }
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /**
   * Like {@link #pin(Location, Path)}, for a segment whose size is known (from the controller's
   * records): a local copy of that size is taken without asking the store (no HEAD), so a restarted
   * server opens its pinned segments without a request each. Segments never change in place, and
   * opening checks every part, so a wrong local copy is still caught.
   */
  public Path pin(Location location, long knownSize, Path localDirectory) throws IOException {
    requireNonNull(localDirectory, "localDirectory is null");
    Path target = localDirectory.resolve(relativePath(location)).normalize();
    if (target.startsWith(localDirectory.normalize())
        && Files.isRegularFile(target)
        && Files.size(target) == knownSize) {
      return target;
    }
    return pin(location, localDirectory);
  }

  /** Opens a pinned segment file, memory-mapped. The caller closes the segment. */
  public static Segment openPinned(Path file, IndexService indexes) throws IOException {
    return openPinned(file, indexes, BitmapCache.disabled());
  }

  /**
   * Opens a pinned segment file, memory-mapped, its index readers keeping decoded bitmaps in {@code
   * bitmaps}. The caller closes the segment.
   */
  public static Segment openPinned(Path file, IndexService indexes, BitmapCache bitmaps)
      throws IOException {
    // Segment.open closes the source when it fails.
    return Segment.open(MappedSegmentSource.open(file), indexes, bitmaps);
  }

  private String relativePath(Location location) {
    String key = location.key();
    if (location.scheme().equals(prefix.scheme())
        && location.bucket().equals(prefix.bucket())
        && key.startsWith(prefix.key())) {
      return key.substring(prefix.key().length());
    }
    return key.substring(key.lastIndexOf('/') + 1);
  }

  @Override
  public String toString() {
    return "SegmentStore[" + prefix + "]";
  }
}
