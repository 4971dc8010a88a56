package io.shelfmark.indexbuilder.build;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectInfo;
import io.shelfmark.storage.spi.ObjectStore;
import io.shelfmark.storage.spi.StorageStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A view of a shared store that also counts the ranged reads of one build, which the store's own
 * statistics cannot attribute when builds run in parallel. Closing it does not close the store.
 * Thread safe (the reader's fetches run on other threads).
 */
final class CountingReads implements ObjectStore {
  private final ObjectStore store;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();

  CountingReads(ObjectStore store) {
    this.store = requireNonNull(store, "store is null");
  }

  long requests() {
    return requests.get();
  }

  long bytes() {
    return bytes.get();
  }

  @Override
  public byte[] readRange(Location location, long offset, int length) throws IOException {
    byte[] read = store.readRange(location, offset, length);
    requests.incrementAndGet();
    bytes.addAndGet(read.length);
    return read;
  }

  @Override
  public ObjectInfo stat(Location location) throws IOException {
    requests.incrementAndGet();
    return store.stat(location);
  }

  @Override
  public InputStream open(Location location) throws IOException {
    throw new UnsupportedOperationException(
        "Cannot stream " + location + " while building a segment: reads are ranged");
  }

  @Override
  public void write(Location location, byte[] content) throws IOException {
    throw new UnsupportedOperationException("Cannot write " + location + " through a read view");
  }

  @Override
  public void upload(Location location, Path file) throws IOException {
    throw new UnsupportedOperationException("Cannot write " + location + " through a read view");
  }

  @Override
  public boolean delete(Location location) throws IOException {
    throw new UnsupportedOperationException("Cannot delete " + location + " through a read view");
  }

  @Override
  public List<ObjectInfo> list(Location prefix) throws IOException {
    requests.incrementAndGet();
    return store.list(prefix);
  }

  @Override
  public StorageStats stats() {
    return store.stats();
  }

  @Override
  public void close() {
    // The store is shared and closed by its owner.
  }
}
