package io.shelfmark.storage.spi;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Object storage as Shelfmark needs it: whole and ranged reads of immutable objects, writes of
 * whole objects, listing and deletion. Implementations: S3 (AWS SDK v2, any S3-compatible endpoint)
 * and the local filesystem.
 *
 * <p>Thread safety: implementations are safe for concurrent use by many threads. Every call that
 * reaches the store is counted in {@link #stats()} (see {@link StorageStats} for what counts).
 *
 * <p>Lifecycle: open through {@code io.shelfmark.storage.ObjectStores}, share one instance per
 * process (it holds the HTTP connection pool), {@link #close()} once at shutdown. Calls after close
 * fail.
 *
 * <p>Errors: a missing object raises {@link ObjectNotFoundException}; any other failure raises
 * {@link StorageException} naming the location and what to do. Neither is ever swallowed.
 */
public interface ObjectStore extends Closeable {

  /** Returns the size (and ETag where the store has one) of an object. One request (HEAD). */
  ObjectInfo stat(Location location) throws IOException;

  /**
   * Reads {@code length} bytes starting at {@code offset}: one ranged GET. The range must lie
   * inside the object; a range past its end raises {@link StorageException} giving the object's
   * size. A zero length returns an empty array without a request.
   */
  byte[] readRange(Location location, long offset, int length) throws IOException;

  /**
   * As {@link #readRange(Location, long, int)}, for {@code into.length()} bytes, into the caller's
   * {@code into} (whose pieces let a caller keep every array small), telling {@code progress} as
   * the bytes arrive, so that a caller can start on the first ones (decode a page) while the rest
   * are still on the way. A store that cannot hand over part of a range (this default) reports it
   * once, whole; the S3 store reports as the body streams in. Reports run on the reading thread:
   * they must be quick.
   */
  default void readRange(Location location, long offset, RangeBuffers into, RangeProgress progress)
      throws IOException {
    byte[] bytes = readRange(location, offset, into.length());
    if (bytes.length != into.length()) {
      throw new StorageException(
          "Cannot read %d bytes at offset %d of %s: the store returned %d"
              .formatted(into.length(), offset, location, bytes.length));
    }
    into.copyFrom(bytes);
    progress.arrived(bytes.length);
  }

  /**
   * Receives a ranged read's progress; see {@link #readRange(Location, long, RangeBuffers,
   * RangeProgress)}.
   */
  @FunctionalInterface
  interface RangeProgress {
    /**
     * The first {@code filled} bytes of the range are in its buffers and will not change. Called
     * with a growing {@code filled}, last with the whole range. Must not throw.
     */
    void arrived(int filled);
  }

  /**
   * Opens a stream over the whole object: one GET, bytes counted as they are read. The caller must
   * close it; closing before the end abandons the rest without downloading it.
   */
  InputStream open(Location location) throws IOException;

  /** Writes a whole object from memory, replacing any object at that location. */
  void write(Location location, byte[] content) throws IOException;

  /**
   * Writes a whole object from a local file, replacing any object at that location. The file is
   * streamed, never held in memory; large files go up in parts where the store supports it.
   */
  void upload(Location location, Path file) throws IOException;

  /**
   * Deletes an object; returns false when there was none. On S3, whose DELETE succeeds either way,
   * this costs a HEAD before the DELETE.
   */
  boolean delete(Location location) throws IOException;

  /**
   * Lists the objects whose location starts with {@code prefix}, as a string prefix (as S3 does:
   * {@code s3://b/data} also matches {@code s3://b/data2/x}; end it with {@code /} for one
   * "directory"), in key order. A missing bucket raises {@link ObjectNotFoundException}; a prefix
   * matching nothing gives an empty list.
   */
  List<ObjectInfo> list(Location prefix) throws IOException;

  /** Counters of requests and bytes since this store was opened. */
  StorageStats stats();

  @Override
  void close() throws IOException;
}
