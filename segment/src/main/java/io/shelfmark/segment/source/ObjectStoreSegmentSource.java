package io.shelfmark.segment.source;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A segment in the segment store, read with one ranged GET per {@link #read} ("no local storage"
 * mode). Nothing is cached here: wrap the store with the cache module to keep hot ranges. Thread
 * safe as the store is. Closing does not close the store, which is shared.
 */
public final class ObjectStoreSegmentSource implements SegmentSource {
  private final ObjectStore store;
  private final Location location;
  private final long size;

  /**
   * @param size the segment's size, known from the controller's segment record, so opening costs no
   *     HEAD request; use {@link #open} when it is not known
   */
  public ObjectStoreSegmentSource(ObjectStore store, Location location, long size) {
    this.store = requireNonNull(store, "store is null");
    this.location = requireNonNull(location, "location is null");
    if (size < 0) {
      throw new IllegalArgumentException(
          "Cannot read segment " + location + " of negative size " + size);
    }
    this.size = size;
  }

  /** A source whose size is taken from the store: one HEAD request. */
  public static ObjectStoreSegmentSource open(ObjectStore store, Location location)
      throws IOException {
    return new ObjectStoreSegmentSource(store, location, store.stat(location).size());
  }

  @Override
  public String name() {
    return location.toString();
  }

  @Override
  public long size() {
    return size;
  }

  @Override
  public ByteBuffer read(long offset, int length) throws IOException {
    if (offset < 0 || length < 0 || offset > size - length) {
      throw new EOFException(
          "Cannot read %d bytes at offset %d of segment %s: it has %d bytes"
              .formatted(length, offset, location, size));
    }
    byte[] bytes = store.readRange(location, offset, length);
    if (bytes.length != length) {
      throw new EOFException(
          "Cannot read %d bytes at offset %d of segment %s: the store returned %d"
              .formatted(length, offset, location, bytes.length));
    }
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public boolean isMemoryResident() {
    return false;
  }

  @Override
  public void close() {
    // The store is shared and closed by its owner.
  }

  @Override
  public String toString() {
    return "ObjectStoreSegmentSource[" + location + ", " + size + " bytes]";
  }
}
