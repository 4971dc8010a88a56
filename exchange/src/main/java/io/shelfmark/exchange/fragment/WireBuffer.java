package io.shelfmark.exchange.fragment;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The frame both fragment codecs share, little-endian:
 *
 * <pre>
 * magic i32 | version u16 | body length i32 | body | crc32c(body) i32
 * </pre>
 *
 * The magic tells a fragment from a response (or from anything else); the version is checked before
 * the body is read; the checksum catches bytes damaged on the way.
 */
final class WireBuffer {
  private WireBuffer() {}

  /** Appends values to a body, little-endian; strings as i32 length + UTF-8. */
  static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);

    Writer u8(int value) {
      bytes.write(value);
      return this;
    }

    Writer i32(int value) {
      scratch.clear();
      scratch.putInt(value);
      bytes.write(scratch.array(), 0, 4);
      return this;
    }

    Writer i64(long value) {
      scratch.clear();
      scratch.putLong(value);
      bytes.write(scratch.array(), 0, 8);
      return this;
    }

    Writer string(String value) {
      return bytes(value.getBytes(StandardCharsets.UTF_8));
    }

    Writer bytes(byte[] value) {
      i32(value.length);
      bytes.write(value, 0, value.length);
      return this;
    }

    /** The framed bytes: magic, version, body length, body, checksum. */
    byte[] frame(int magic, int version) {
      byte[] body = bytes.toByteArray();
      CRC32C crc = new CRC32C();
      crc.update(body);
      ByteBuffer out =
          ByteBuffer.allocate(4 + 2 + 4 + body.length + 4).order(ByteOrder.LITTLE_ENDIAN);
      out.putInt(magic).putShort((short) version).putInt(body.length).put(body);
      out.putInt((int) crc.getValue());
      return out.array();
    }
  }

  /** Reads a body checked by {@link #open}; every read past its end throws. */
  static final class Reader {
    private final ByteBuffer body;
    private final int version;

    private Reader(ByteBuffer body, int version) {
      this.body = body;
      this.version = version;
    }

    /** The frame's version: a reader of several versions decodes each one's body. */
    int version() {
      return version;
    }

    int u8() {
      return body.get() & 0xff;
    }

    int i32() {
      return body.getInt();
    }

    long i64() {
      return body.getLong();
    }

    String string() {
      return new String(bytes(), StandardCharsets.UTF_8);
    }

    byte[] bytes() {
      int length = body.getInt();
      if (length < 0 || length > body.remaining()) {
        throw new BufferUnderflowException();
      }
      byte[] value = new byte[length];
      body.get(value);
      return value;
    }

    /** A count of items that each take at least {@code minBytes}: bounded by what is left. */
    int count(int minBytes) {
      int count = body.getInt();
      if (count < 0 || (long) count * minBytes > body.remaining()) {
        throw new BufferUnderflowException();
      }
      return count;
    }

    boolean exhausted() {
      return !body.hasRemaining();
    }
  }

  /**
   * The body of {@code bytes} after checking magic, version, length and checksum; {@code what}
   * names the thing for messages ("plan fragment").
   */
  static Reader open(byte[] bytes, int magic, int version, String what) {
    return open(bytes, magic, version, version, what);
  }

  /**
   * As {@link #open(byte[], int, int, String)}, for a reader of versions {@code oldest..newest}.
   */
  static Reader open(byte[] bytes, int magic, int oldest, int newest, String what) {
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (bytes.length < 14 || in.getInt() != magic) {
      throw new WireFormatException(
          "Cannot read a %s of %d bytes: it does not start with the %s magic (is the sender a Shelfmark broker or server?)"
              .formatted(what, bytes.length, what));
    }
    int found = in.getShort() & 0xffff;
    if (found < oldest || found > newest) {
      throw new WireFormatException(
          "Cannot read a %s of version %d: this node reads %s (run brokers and servers of the same release, or upgrade the older side)"
              .formatted(
                  what,
                  found,
                  oldest == newest ? "version " + oldest : "versions " + oldest + " to " + newest));
    }
    int length = in.getInt();
    if (length < 0 || length != in.remaining() - 4) {
      throw new WireFormatException(
          "Cannot read a %s of %d bytes: its header says a body of %d bytes, %d follow (the bytes are truncated or corrupt)"
              .formatted(what, bytes.length, length, in.remaining() - 4));
    }
    ByteBuffer body = in.slice(in.position(), length).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(body.duplicate());
    int expected = in.getInt(in.position() + length);
    if ((int) crc.getValue() != expected) {
      throw new WireFormatException(
          "Cannot read a %s of %d bytes: its checksum says crc32c %08x, its body has %08x (the bytes are corrupt)"
              .formatted(what, bytes.length, expected, (int) crc.getValue()));
    }
    return new Reader(body, found);
  }
}
