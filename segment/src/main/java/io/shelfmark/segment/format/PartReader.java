package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link PartWriter} wrote, checking every read against the part's bounds: running out
 * of bytes or meeting a malformed varint raises {@link CorruptSegmentException} naming the segment,
 * the part and the absolute file offset. Not thread safe (it has a position); the buffer it reads
 * may be shared.
 */
public final class PartReader {
  private final String segment;
  private final String part;
  private final long baseOffset;
  private final ByteBuffer buffer;

  /**
   * @param segment the segment's name, for messages
   * @param part the part's name ({@link PartKey#toString()}), for messages
   * @param baseOffset the file offset of the buffer's position 0, for messages
   * @param buffer the part's bytes, from position 0 to its limit
   */
  public PartReader(String segment, String part, long baseOffset, ByteBuffer buffer) {
    this.segment = requireNonNull(segment, "segment is null");
    this.part = requireNonNull(part, "part is null");
    this.baseOffset = baseOffset;
    this.buffer =
        requireNonNull(buffer, "buffer is null").duplicate().order(ByteOrder.LITTLE_ENDIAN);
  }

  public int position() {
    return buffer.position();
  }

  public int remaining() {
    return buffer.remaining();
  }

  public int limit() {
    return buffer.limit();
  }

  public PartReader position(int position) throws CorruptSegmentException {
    if (position < 0 || position > buffer.limit()) {
      throw corrupt(
          "position %d is outside the part's %d bytes".formatted(position, buffer.limit()));
    }
    buffer.position(position);
    return this;
  }

  private void require(int bytes) throws CorruptSegmentException {
    if (bytes < 0 || buffer.remaining() < bytes) {
      throw new CorruptSegmentException(
          segment,
          part,
          baseOffset + buffer.position(),
          "needs %d bytes but %d remain in the part".formatted(bytes, buffer.remaining()));
    }
  }

  public int getByte() throws CorruptSegmentException {
    require(1);
    return buffer.get() & 0xFF;
  }

  public int getShort() throws CorruptSegmentException {
    require(2);
    return buffer.getShort() & 0xFFFF;
  }

  public int getInt() throws CorruptSegmentException {
    require(4);
    return buffer.getInt();
  }

  public long getLong() throws CorruptSegmentException {
    require(8);
    return buffer.getLong();
  }

  public double getDouble() throws CorruptSegmentException {
    return Double.longBitsToDouble(getLong());
  }

  public long getVarLong() throws CorruptSegmentException {
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = getByte();
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new CorruptSegmentException(
        segment, part, baseOffset + buffer.position(), "varint longer than 10 bytes");
  }

  /** An unsigned varint that must fit a non-negative int. */
  public int getVarInt() throws CorruptSegmentException {
    long start = baseOffset + buffer.position();
    long value = getVarLong();
    if (value < 0 || value > Integer.MAX_VALUE) {
      throw new CorruptSegmentException(
          segment, part, start, "varint %d does not fit a non-negative int".formatted(value));
    }
    return (int) value;
  }

  /** A varint count that must be at most {@code max}: guards allocations sized by the input. */
  public int getCount(int max, String what) throws CorruptSegmentException {
    long start = baseOffset + buffer.position();
    int count = getVarInt();
    if (count > max) {
      throw new CorruptSegmentException(
          segment, part, start, "%s count %d exceeds %d".formatted(what, count, max));
    }
    return count;
  }

  public long getZigZag() throws CorruptSegmentException {
    long raw = getVarLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  public String getString() throws CorruptSegmentException {
    int length = getVarInt();
    require(length);
    byte[] utf8 = new byte[length];
    buffer.get(utf8);
    return new String(utf8, StandardCharsets.UTF_8);
  }

  public byte[] getBytes(int length) throws CorruptSegmentException {
    require(length);
    byte[] result = new byte[length];
    buffer.get(result);
    return result;
  }

  /**
   * A little-endian slice of the next {@code length} bytes, sharing the part's memory; the position
   * moves past it.
   */
  public ByteBuffer slice(int length) throws CorruptSegmentException {
    require(length);
    ByteBuffer slice = buffer.slice(buffer.position(), length).order(ByteOrder.LITTLE_ENDIAN);
    buffer.position(buffer.position() + length);
    return slice;
  }

  /** Fails unless every byte of the part was consumed: trailing bytes mean a mismatched layout. */
  public void expectEnd() throws CorruptSegmentException {
    if (buffer.hasRemaining()) {
      throw new CorruptSegmentException(
          segment,
          part,
          baseOffset + buffer.position(),
          "%d unexpected bytes after the part's contents".formatted(buffer.remaining()));
    }
  }

  /** A corruption error at the current position, for checks made by the caller. */
  public CorruptSegmentException corrupt(String reason) {
    return new CorruptSegmentException(segment, part, baseOffset + buffer.position(), reason);
  }

  /** A corruption error at the current position with a cause. */
  public CorruptSegmentException corrupt(String reason, Throwable cause) {
    return new CorruptSegmentException(
        segment, part, baseOffset + buffer.position(), reason, cause);
  }
}
