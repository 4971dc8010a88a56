package io.shelfmark.cache.disk;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.shelfmark.cache.key.CacheKey;
import io.shelfmark.cache.key.ObjectIdentity;
import io.shelfmark.storage.spi.Location;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.CRC32C;

/**
 * The on-disk form of one cache entry, and the file name it is stored under.
 *
 * <pre>
 * offset  size  field (little-endian)
 *      0     4  magic "SMCE" (bytes 0x53 0x4D 0x43 0x45)
 *      4     2  format version, 1
 *      6     2  reserved, 0
 *      8     4  key length K
 *     12     4  payload length N
 *     16     4  CRC32C of the key bytes
 *     20     4  CRC32C of the payload
 *     24     4  CRC32C of bytes 0..23 (the header's own check)
 *     28     K  key bytes (see below)
 *   28+K     N  payload: the cached range's bytes
 * </pre>
 *
 * <p>Key bytes (little-endian): kind byte ({@code 'I'} immutable, {@code 'V'} versioned), then
 * length-prefixed (int32) UTF-8 strings scheme, bucket, object key, the int64 object size, for
 * {@code 'V'} the length-prefixed ETag, then the int64 offset and the int32 length. The full key is
 * stored so that a read can prove the file holds exactly the requested range of exactly the
 * requested object version; a hash collision or a misplaced file reads as corrupt, never as data.
 *
 * <p>File name: the first 16 bytes of SHA-256 over the key bytes, as 32 lower-case hex digits.
 *
 * <p>A file is accepted only if its magic, version, header checksum, key and payload lengths, file
 * length, key bytes and both checksums all agree; anything else is {@link
 * CorruptCacheEntryException}. Lengths are checked against the expected key and the file size
 * before anything is allocated, so a damaged length field cannot cause a huge allocation.
 */
final class DiskEntryCodec {
  static final int HEADER_SIZE = 28;
  static final short FORMAT_VERSION = 1;
  private static final byte[] MAGIC = {'S', 'M', 'C', 'E'};
  private static final int NAME_BYTES = 16;
  private static final HexFormat HEX = HexFormat.of();

  private DiskEntryCodec() {}

  /** The canonical bytes of {@code key}, stored in the entry and hashed for its name. */
  static byte[] encodeKey(CacheKey key) {
    ObjectIdentity object = key.object();
    Location location = object.location();
    byte[] scheme = location.scheme().getBytes(UTF_8);
    byte[] bucket = location.bucket().getBytes(UTF_8);
    byte[] path = location.key().getBytes(UTF_8);
    byte[] etag = object.etag().map(tag -> tag.getBytes(UTF_8)).orElse(new byte[0]);
    int size = 1 + 4 + scheme.length + 4 + bucket.length + 4 + path.length + 8 + 8 + 4;
    if (object.etag().isPresent()) {
      size += 4 + etag.length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    buffer.put((byte) (object.etag().isPresent() ? 'V' : 'I'));
    putString(buffer, scheme);
    putString(buffer, bucket);
    putString(buffer, path);
    buffer.putLong(object.size());
    if (object.etag().isPresent()) {
      putString(buffer, etag);
    }
    buffer.putLong(key.offset());
    buffer.putInt(key.length());
    return buffer.array();
  }

  private static void putString(ByteBuffer buffer, byte[] utf8) {
    buffer.putInt(utf8.length);
    buffer.put(utf8);
  }

  /** The file name for an entry with these key bytes. */
  static String entryName(byte[] keyBytes) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(keyBytes);
      return HEX.formatHex(digest, 0, NAME_BYTES);
    } catch (NoSuchAlgorithmException e) {
      // Every Java platform is required to provide SHA-256.
      throw new IllegalStateException("Cannot name disk cache entry: SHA-256 is unavailable", e);
    }
  }

  /** Whether {@code name} has the shape of an entry file name. */
  static boolean isEntryName(String name) {
    if (name.length() != NAME_BYTES * 2) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** The size of the entry file for a key and payload of these lengths. */
  static long entrySize(int keyLength, int payloadLength) {
    return (long) HEADER_SIZE + keyLength + payloadLength;
  }

  /** Writes a complete entry to {@code file}, which must exist and be empty. */
  static void write(Path file, byte[] keyBytes, byte[] payload) throws IOException {
    ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
    header.put(MAGIC);
    header.putShort(FORMAT_VERSION);
    header.putShort((short) 0);
    header.putInt(keyBytes.length);
    header.putInt(payload.length);
    header.putInt(crc32c(keyBytes, 0, keyBytes.length));
    header.putInt(crc32c(payload, 0, payload.length));
    header.putInt(crc32c(header.array(), 0, HEADER_SIZE - 4));
    header.flip();
    ByteBuffer[] parts = {header, ByteBuffer.wrap(keyBytes), ByteBuffer.wrap(payload)};
    long total = entrySize(keyBytes.length, payload.length);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      long written = 0;
      while (written < total) {
        written += channel.write(parts);
      }
    }
  }

  /**
   * Reads the payload of the entry in {@code file}, which must hold exactly {@code expectedKey}.
   *
   * @throws CorruptCacheEntryException when any check fails
   * @throws java.nio.file.NoSuchFileException when the file is gone (evicted meanwhile)
   * @throws IOException when the file cannot be read
   */
  static byte[] read(Path file, byte[] expectedKey, int expectedLength) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long fileSize = channel.size();
      if (fileSize < HEADER_SIZE) {
        throw new CorruptCacheEntryException(
            file,
            "file is " + fileSize + " bytes, shorter than the " + HEADER_SIZE + "-byte header");
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
      readFully(channel, header, 0, file);
      header.flip();
      byte[] magic = new byte[MAGIC.length];
      header.get(magic);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new CorruptCacheEntryException(file, "bad magic " + HEX.formatHex(magic));
      }
      short version = header.getShort();
      header.getShort();
      int keyLength = header.getInt();
      int payloadLength = header.getInt();
      int keyCrc = header.getInt();
      int payloadCrc = header.getInt();
      int headerCrc = header.getInt();
      if (headerCrc != crc32c(header.array(), 0, HEADER_SIZE - 4)) {
        throw new CorruptCacheEntryException(file, "header checksum mismatch");
      }
      if (version != FORMAT_VERSION) {
        throw new CorruptCacheEntryException(
            file, "format version " + version + " but this build reads " + FORMAT_VERSION);
      }
      if (keyLength != expectedKey.length || payloadLength != expectedLength) {
        throw new CorruptCacheEntryException(
            file,
            "holds a %d-byte key and %d-byte payload but the request has a %d-byte key and %d bytes"
                .formatted(keyLength, payloadLength, expectedKey.length, expectedLength));
      }
      long declared = entrySize(keyLength, payloadLength);
      if (fileSize != declared) {
        throw new CorruptCacheEntryException(
            file, "file is " + fileSize + " bytes but its header declares " + declared);
      }
      byte[] keyBytes = new byte[keyLength];
      readFully(channel, ByteBuffer.wrap(keyBytes), HEADER_SIZE, file);
      if (crc32c(keyBytes, 0, keyLength) != keyCrc) {
        throw new CorruptCacheEntryException(file, "key checksum mismatch");
      }
      if (!Arrays.equals(keyBytes, expectedKey)) {
        throw new CorruptCacheEntryException(file, "holds a different key than requested");
      }
      byte[] payload = new byte[payloadLength];
      readFully(channel, ByteBuffer.wrap(payload), HEADER_SIZE + (long) keyLength, file);
      if (crc32c(payload, 0, payloadLength) != payloadCrc) {
        throw new CorruptCacheEntryException(file, "payload checksum mismatch");
      }
      return payload;
    }
  }

  private static void readFully(FileChannel channel, ByteBuffer target, long position, Path file)
      throws IOException {
    long at = position;
    while (target.hasRemaining()) {
      int read = channel.read(target, at);
      if (read < 0) {
        // The size was checked, so a short read means the file shrank while being read.
        throw new EOFException(
            "Cannot read disk cache entry " + file + ": it ended at byte " + at + " while reading");
      }
      at += read;
    }
  }

  static int crc32c(byte[] bytes, int offset, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    return (int) crc.getValue();
  }
}
