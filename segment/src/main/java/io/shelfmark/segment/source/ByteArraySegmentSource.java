package io.shelfmark.segment.source;

import static java.util.Objects.requireNonNull;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A segment held in memory, for a segment just built (to check it before upload) and for tests. The
 * array is not copied: it must not change afterwards. Thread safe.
 */
public final class ByteArraySegmentSource implements SegmentSource {
  private final String name;
  private final byte[] bytes;

  public ByteArraySegmentSource(String name, byte[] bytes) {
    this.name = requireNonNull(name, "name is null");
    this.bytes = requireNonNull(bytes, "bytes is null");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public long size() {
    return bytes.length;
  }

  @Override
  public ByteBuffer read(long offset, int length) throws EOFException {
    if (offset < 0 || length < 0 || offset > bytes.length - length) {
      throw new EOFException(
          "Cannot read %d bytes at offset %d of segment %s: it has %d bytes"
              .formatted(length, offset, name, bytes.length));
    }
    return ByteBuffer.wrap(bytes, (int) offset, length)
        .slice()
        .asReadOnlyBuffer()
        .order(ByteOrder.LITTLE_ENDIAN);
  }

  @Override
  public boolean isMemoryResident() {
    return true;
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "ByteArraySegmentSource[" + name + ", " + bytes.length + " bytes]";
  }
}
