package io.shelfmark.storage.counting;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.CountedAtEnd;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.RangeBuffers;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A view of a shared store that counts the requests made through it, so one query (or one build)
 * can report what it alone read while the store serves many at once. Whole-object {@code open}
 * streams count one GET and the bytes their caller reads. Closing the view does not close the
 * store. Retries the store's client makes during a call on the calling thread are counted too
 * ({@link StorageStats#attributing}). Thread safe.
 */
public final class CountingObjectStore implements ObjectStore {
  private final ObjectStore delegate;
  private final StorageStats stats = new StorageStats();

  public CountingObjectStore(ObjectStore delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  /** What went through this view. */
  @Override
  public StorageStats stats() {
    return stats;
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    stats.recordHead();
    return stats.attributing(() -> delegate.stat(location));
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    stats.recordGet();
    byte[] bytes = stats.attributing(() -> delegate.readRange(location, offset, length));
    stats.recordBytesRead(bytes.length);
    return bytes;
  }

  @Override
  public void readRange(Location location, long offset, RangeBuffers into, RangeProgress progress)
      throws IOException {
    stats.recordGet();
    CountedAtEnd counting = new CountedAtEnd(stats::recordBytesRead, into.length(), progress);
    stats.attributing(
        () -> {
          delegate.readRange(location, offset, into, counting);
          return null;
        });
    counting.settle();
  }

  @Override
  public InputStream open(Location location) throws IOException {
    stats.recordGet();
    return new CountingInputStream(stats.attributing(() -> delegate.open(location)), stats);
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    stats.recordPut(content.length);
    delegate.write(location, content);
  }

  @Override
  public void upload(Location location, Path file) throws IOException {
    stats.recordPut(java.nio.file.Files.size(file));
    delegate.upload(location, file);
  }

  @Override
  public boolean delete(Location location) throws IOException {
    stats.recordDelete();
    return delegate.delete(location);
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    stats.recordList();
    return delegate.list(prefix);
  }

  /** Does nothing: the delegate is shared and closed by its owner. */
  @Override
  public void close() {}
}
