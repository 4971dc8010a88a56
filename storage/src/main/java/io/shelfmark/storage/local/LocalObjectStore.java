package io.shelfmark.storage.local;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.counting.CountingInputStream;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectNotFoundException;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageException;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The local filesystem as an {@link ObjectStore}, for development, tests and single-machine setups.
 *
 * <p>Locations: {@code file:} locations are absolute paths. With a root directory, they must lie
 * below it, and {@code s3://bucket/key} locations are served from {@code <root>/bucket/key} — the
 * layout of {@code EmbeddedS3Server}'s directory, so a root can stand in for the bucket space of a
 * lake written through S3. Without a root, any path is allowed and {@code s3:} locations are
 * refused. Symbolic links are followed, so a link inside the root can lead outside it: the root
 * guards against mistakes, it is not a sandbox.
 *
 * <p>Reads are positional ({@link FileChannel#read(ByteBuffer, long)}); writes go to a temporary
 * file in the target directory that is then moved over the target atomically, so readers see the
 * old object or the new one, never a partial one. Listing walks the directory tree and skips those
 * temporary files. Requests and bytes are counted as for S3: one GET per read, one HEAD per stat,
 * one PUT per write or upload, one LIST per listing, one DELETE per delete.
 *
 * <p>Thread safety: safe for concurrent use; writers of the same location race and the last move
 * wins, as with S3.
 */
public final class LocalObjectStore implements ObjectStore {
  /** Suffix of in-flight write files: never listed, never readable as objects. */
  static final String TEMPORARY_SUFFIX = ".shelfmark-tmp";

  private final Optional<Path> root;
  private final StorageStats stats;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * @param root when present, every location must resolve below it, and s3 locations map to {@code
   *     <root>/bucket/key}
   * @param stats where requests and bytes are counted (shared with other stores by {@code
   *     RoutingObjectStore})
   */
  public LocalObjectStore(Optional<Path> root, StorageStats stats) {
    this.root = requireNonNull(root, "root is null").map(path -> path.toAbsolutePath().normalize());
    this.stats = requireNonNull(stats, "stats is null");
  }

  /** A store for {@code file:} locations anywhere on this machine. */
  public static LocalObjectStore unconfined() {
    return new LocalObjectStore(Optional.empty(), new StorageStats());
  }

  /** A store confined to {@code root}, also serving {@code s3://bucket/key} as root/bucket/key. */
  public static LocalObjectStore confinedTo(Path root) {
    return new LocalObjectStore(
        Optional.of(requireNonNull(root, "root is null")), new StorageStats());
  }

  public Optional<Path> root() {
    return root;
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    Path path = resolve("read", location);
    stats.recordHead();
    try {
      BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
      if (!attributes.isRegularFile()) {
        throw notAnObject(location, path);
      }
      return info(location, attributes);
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("read", location, e);
    }
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    checkRange(location, offset, length);
    Path path = resolve("read", location);
    if (length == 0) {
      return new byte[0];
    }
    stats.recordGet();
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
      long size = channel.size();
      if (offset + length > size) {
        throw new StorageException(FileMessages.pastEnd(location, offset, length, size));
      }
      ByteBuffer buffer = ByteBuffer.allocate(length);
      while (buffer.hasRemaining()) {
        int n = channel.read(buffer, offset + buffer.position());
        if (n < 0) {
          // The file shrank between size() and read(): it was replaced in place by someone else.
          throw new StorageException(
              FileMessages.pastEnd(location, offset, length, offset + buffer.position()));
        }
        stats.recordBytesRead(n);
      }
      return buffer.array();
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("read", location, e);
    }
  }

  @Override
  public InputStream open(Location location) throws IOException {
    Path path = resolve("read", location);
    stats.recordGet();
    try {
      if (Files.isDirectory(path)) {
        throw notAnObject(location, path);
      }
      return new CountingInputStream(Files.newInputStream(path), stats);
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("read", location, e);
    }
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    requireNonNull(content, "content is null");
    Path path = resolve("write", location);
    stats.recordPut(content.length);
    try {
      AtomicFileWriter.write(path, content);
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("write", location, e);
    }
  }

  @Override
  public void upload(Location location, Path file) throws IOException {
    requireNonNull(file, "file is null");
    Path path = resolve("write", location);
    long size = FileMessages.sizeOfUpload(file, location);
    stats.recordPut(size);
    try {
      AtomicFileWriter.copy(file, path);
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("write", location, e);
    }
  }

  @Override
  public boolean delete(Location location) throws IOException {
    Path path = resolve("delete", location);
    stats.recordDelete();
    try {
      // A directory is not an object: deleting "it" must not remove an empty directory tree.
      if (Files.isDirectory(path)) {
        return false;
      }
      return Files.deleteIfExists(path);
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("delete", location, e);
    }
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    Path base = resolve("list", prefix);
    stats.recordList();
    try {
      return DirectoryLister.list(prefix, base, bucketDirectory(prefix));
    } catch (IOException e) {
      stats.recordFailure();
      throw translate("list", prefix, e);
    }
  }

  @Override
  public StorageStats stats() {
    return stats;
  }

  @Override
  public void close() {
    closed.set(true);
  }

  @Override
  public String toString() {
    return "LocalObjectStore{" + root.map(Path::toString).orElse("unconfined") + "}";
  }

  static ObjectInfo info(Location location, BasicFileAttributes attributes) {
    // Modification time and size change when a file is replaced: a cheap stand-in for an ETag.
    String tag =
        Long.toHexString(attributes.lastModifiedTime().toMillis())
            + "-"
            + Long.toHexString(attributes.size());
    return new ObjectInfo(location, attributes.size(), Optional.of(tag));
  }

  /** The file (or, for a listing prefix, the path string prefix) a location names. */
  private Path resolve(String verb, Location location) throws StorageException {
    requireNonNull(location, "location is null");
    if (closed.get()) {
      throw new IllegalStateException(
          "Cannot " + verb + " " + location + ": the local object store is closed");
    }
    if (location.scheme().equals("s3")) {
      Path bucket = bucketDirectory(location).orElseThrow(() -> noS3(verb, location));
      Path path = bucket.resolve(location.key()).normalize();
      if (!path.startsWith(bucket)) {
        throw new StorageException(
            "Cannot " + verb + " " + location + ": the key leaves its bucket (remove '..')");
      }
      return path;
    }
    Path path = Path.of(location.key());
    if (!path.isAbsolute()) {
      throw new StorageException(
          "Cannot " + verb + " " + location + ": not an absolute path (use file:/absolute/path)");
    }
    Path normalized = path.normalize();
    if (root.isPresent() && !normalized.startsWith(root.get())) {
      throw new StorageException(
          "Cannot "
              + verb
              + " "
              + location
              + ": outside the storage root "
              + root.get()
              + " (use a location below it, or change storage.root)");
    }
    return normalized;
  }

  private Optional<Path> bucketDirectory(Location location) {
    if (!location.scheme().equals("s3")) {
      return Optional.empty();
    }
    return root.map(r -> r.resolve(location.bucket()));
  }

  private static StorageException noS3(String verb, Location location) {
    return new StorageException(
        "Cannot "
            + verb
            + " "
            + location
            + ": a local store without a root directory serves only file: locations"
            + " (set storage.root, or use storage.type s3 for S3)");
  }

  private static ObjectNotFoundException notAnObject(Location location, Path path) {
    return new ObjectNotFoundException(
        location, path + " is a directory, not a file", new NoSuchFileException(path.toString()));
  }

  private static void checkRange(Location location, long offset, int length) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Cannot read "
              + location
              + ": offset "
              + offset
              + " and length "
              + length
              + " must not be negative");
    }
  }

  private static IOException translate(String verb, Location location, IOException e) {
    if (e instanceof StorageException storage) {
      return storage;
    }
    if (e instanceof NoSuchFileException) {
      return new ObjectNotFoundException(location, "no such file " + e.getMessage(), e);
    }
    if (e instanceof AccessDeniedException) {
      return new StorageException(
          "Cannot "
              + verb
              + " "
              + location
              + ": permission denied on "
              + e.getMessage()
              + " (check the file's owner and mode)",
          e);
    }
    String detail = e instanceof FileSystemException fs ? fs.getReason() : null;
    return new StorageException(
        "Cannot "
            + verb
            + " "
            + location
            + ": "
            + (detail != null ? detail : e.toString())
            + " (check the local disk)",
        e);
  }
}
