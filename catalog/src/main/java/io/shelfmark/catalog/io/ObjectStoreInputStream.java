package io.shelfmark.catalog.io;

import static java.util.Objects.requireNonNull;

import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.EOFException;
import java.io.IOException;
import java.util.Objects;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A seekable stream over one object of known length, reading through ranged GETs of {@code
 * bufferSize} bytes: a sequential reader costs one request per buffer, not one per {@code read}
 * call, and a seek costs nothing until the next read. A read larger than the buffer is fetched in
 * one request of exactly its size. Positional reads ({@link RangeReadable}) fetch exactly the bytes
 * asked for, unless the buffer already holds them, and leave the stream position alone.
 *
 * <p>Not thread safe, as {@link java.io.InputStream}s are not.
 */
final class ObjectStoreInputStream extends SeekableInputStream implements RangeReadable {
  private static final byte[] EMPTY = new byte[0];

  private final ObjectStore store;
  private final Location location;
  private final long length;
  private final int bufferSize;

  private byte[] buffer = EMPTY;
  private long bufferStart;
  private long position;
  private boolean closed;

  ObjectStoreInputStream(ObjectStore store, Location location, long length, int bufferSize) {
    this.store = requireNonNull(store, "store is null");
    this.location = requireNonNull(location, "location is null");
    if (length < 0) {
      throw new IllegalArgumentException("length is negative: " + length + " for " + location);
    }
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("bufferSize is not positive: " + bufferSize);
    }
    this.length = length;
    this.bufferSize = bufferSize;
  }

  @Override
  public long getPos() throws IOException {
    checkOpen();
    return position;
  }

  @Override
  public void seek(long newPosition) throws IOException {
    checkOpen();
    if (newPosition < 0) {
      throw new EOFException(
          "Cannot seek in %s: position %s is negative".formatted(location, newPosition));
    }
    // Seeking past the end is allowed, as for files: the next read reports end of stream.
    position = newPosition;
  }

  @Override
  public int read() throws IOException {
    checkOpen();
    if (position >= length) {
      return -1;
    }
    if (!buffered(position)) {
      fill(position, (int) Math.min(bufferSize, length - position));
    }
    int value = buffer[(int) (position - bufferStart)] & 0xff;
    position++;
    return value;
  }

  @Override
  public int read(byte[] bytes, int offset, int count) throws IOException {
    Objects.checkFromIndexSize(offset, count, bytes.length);
    checkOpen();
    if (count == 0) {
      return 0;
    }
    if (position >= length) {
      return -1;
    }
    int wanted = (int) Math.min(count, length - position);
    if (!buffered(position)) {
      if (wanted >= bufferSize) {
        // A large read gains nothing from the buffer: one GET of exactly its size.
        byte[] direct = fetch(position, wanted);
        System.arraycopy(direct, 0, bytes, offset, wanted);
        position += wanted;
        return wanted;
      }
      fill(position, (int) Math.min(bufferSize, length - position));
    }
    int inBuffer = (int) (bufferStart + buffer.length - position);
    int copied = Math.min(wanted, inBuffer);
    System.arraycopy(buffer, (int) (position - bufferStart), bytes, offset, copied);
    position += copied;
    return copied;
  }

  @Override
  public long skip(long count) throws IOException {
    checkOpen();
    if (count <= 0 || position >= length) {
      return 0;
    }
    long skipped = Math.min(count, length - position);
    position += skipped;
    return skipped;
  }

  @Override
  public int available() throws IOException {
    checkOpen();
    return buffered(position) ? (int) (bufferStart + buffer.length - position) : 0;
  }

  @Override
  public void readFully(long filePosition, byte[] bytes, int offset, int count) throws IOException {
    Objects.checkFromIndexSize(offset, count, bytes.length);
    checkOpen();
    if (filePosition < 0 || filePosition > length - count) {
      throw new EOFException(
          "Cannot read %s bytes at offset %s of %s: the object has %s bytes"
              .formatted(count, filePosition, location, length));
    }
    if (count == 0) {
      return;
    }
    if (filePosition >= bufferStart && filePosition + count <= bufferStart + buffer.length) {
      System.arraycopy(buffer, (int) (filePosition - bufferStart), bytes, offset, count);
      return;
    }
    byte[] range = fetch(filePosition, count);
    System.arraycopy(range, 0, bytes, offset, count);
  }

  @Override
  public int readTail(byte[] bytes, int offset, int count) throws IOException {
    Objects.checkFromIndexSize(offset, count, bytes.length);
    int tail = (int) Math.min(count, length);
    readFully(length - tail, bytes, offset, tail);
    return tail;
  }

  @Override
  public void close() {
    closed = true;
    buffer = EMPTY;
  }

  @Override
  public String toString() {
    return "ObjectStoreInputStream{" + location + ", position=" + position + "/" + length + "}";
  }

  private boolean buffered(long filePosition) {
    return filePosition >= bufferStart && filePosition < bufferStart + buffer.length;
  }

  private void fill(long filePosition, int size) throws IOException {
    buffer = fetch(filePosition, size);
    bufferStart = filePosition;
  }

  private byte[] fetch(long filePosition, int size) throws IOException {
    byte[] fetched = store.readRange(location, filePosition, size);
    if (fetched.length != size) {
      // The store promises exactly the range or an error; a short answer would corrupt reads.
      throw new EOFException(
          "Cannot read %s bytes at offset %s of %s: the store returned %s bytes"
              .formatted(size, filePosition, location, fetched.length));
    }
    return fetched;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("Cannot read %s: the stream is closed".formatted(location));
    }
  }
}
