package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds the bytes of one part in memory: little-endian fixed-width integers, unsigned LEB128
 * varints, zig-zag varints, length-prefixed UTF-8 strings. Grows as needed. Not thread safe.
 *
 * <p>Every multi-byte value is little-endian, as the format requires; readers use {@link
 * PartReader}.
 */
public final class PartWriter {
  private byte[] bytes;
  private int size;

  public PartWriter() {
    this(256);
  }

  public PartWriter(int initialCapacity) {
    bytes = new byte[Math.max(16, initialCapacity)];
  }

  /** The number of bytes written so far. */
  public int size() {
    return size;
  }

  private void ensure(int more) {
    long needed = (long) size + more;
    if (needed > bytes.length) {
      if (needed > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException(
            "Cannot grow a segment part past 2 GiB: it would need %d bytes".formatted(needed));
      }
      bytes =
          Arrays.copyOf(
              bytes, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * bytes.length)));
    }
  }

  public PartWriter putByte(int value) {
    ensure(1);
    bytes[size++] = (byte) value;
    return this;
  }

  public PartWriter putShort(int value) {
    ensure(2);
    bytes[size++] = (byte) value;
    bytes[size++] = (byte) (value >>> 8);
    return this;
  }

  public PartWriter putInt(int value) {
    ensure(4);
    for (int i = 0; i < 4; i++) {
      bytes[size++] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  public PartWriter putLong(long value) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      bytes[size++] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  public PartWriter putDouble(double value) {
    return putLong(Double.doubleToRawLongBits(value));
  }

  /** An unsigned LEB128 varint: 7 bits per byte, high bit set on all but the last byte. */
  public PartWriter putVarLong(long value) {
    ensure(10);
    long rest = value;
    while ((rest & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    bytes[size++] = (byte) rest;
    return this;
  }

  /** A non-negative int as an unsigned varint. */
  public PartWriter putVarInt(int value) {
    if (value < 0) {
      throw new IllegalArgumentException("Cannot write negative varint: " + value);
    }
    return putVarLong(value);
  }

  /** A signed long, zig-zag encoded so small magnitudes stay short. */
  public PartWriter putZigZag(long value) {
    return putVarLong((value << 1) ^ (value >> 63));
  }

  /** A varint length then the UTF-8 bytes. */
  public PartWriter putString(String value) {
    byte[] utf8 = requireNonNull(value, "value is null").getBytes(StandardCharsets.UTF_8);
    putVarInt(utf8.length);
    return putBytes(utf8, 0, utf8.length);
  }

  public PartWriter putBytes(byte[] source) {
    return putBytes(source, 0, source.length);
  }

  public PartWriter putBytes(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
    return this;
  }

  /** Writes {@code count} longs little-endian. */
  public PartWriter putLongs(long[] values, int count) {
    ensure(Math.multiplyExact(count, 8));
    for (int i = 0; i < count; i++) {
      long value = values[i];
      for (int b = 0; b < 8; b++) {
        bytes[size++] = (byte) (value >>> (8 * b));
      }
    }
    return this;
  }

  /** Overwrites the int at {@code position}, which must already have been written. */
  public PartWriter setInt(int position, int value) {
    if (position < 0 || position + 4 > size) {
      throw new IndexOutOfBoundsException(
          "Cannot set int at %d of a part of %d bytes".formatted(position, size));
    }
    for (int i = 0; i < 4; i++) {
      bytes[position + i] = (byte) (value >>> (8 * i));
    }
    return this;
  }

  /** A copy of the bytes written. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }
}
