package io.shelfmark.server.delete;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import org.roaringbitmap.RoaringBitmap;

/**
 * Decodes an Iceberg {@code deletion-vector-v1} Puffin blob into the deleted positions of its data
 * file.
 *
 * <pre>
 *   offset 0        length      4 bytes, big-endian: bytes of magic + vector
 *   offset 4        magic       D1 D3 39 64
 *   offset 8        vector      Roaring64 "portable" serialization, little-endian:
 *                                 count           8 bytes: number of 32-bit bitmaps
 *                                 per bitmap      key (4 bytes: high 32 bits of its positions),
 *                                                 then a 32-bit RoaringBitmap in the portable format
 *   offset 4+length crc         4 bytes, big-endian: CRC-32 of magic + vector
 * </pre>
 *
 * Positions are returned as a 32-bit bitmap: Shelfmark indexes data files of at most 2^31 - 1 rows,
 * so a bitmap with a key other than 0 (positions of 2^32 and above) is refused as unsupported.
 * Stateless and thread safe.
 */
final class DeletionVectorDecoder {
  static final int MAGIC = 0xD1D33964;
  private static final int MIN_LENGTH = 4 + 4 + 8 + 4;

  private DeletionVectorDecoder() {}

  /**
   * @param puffinFile the Puffin file, for messages
   * @param offset the blob's offset in it, for messages
   * @param blob the blob's bytes (exactly {@code content_size_in_bytes})
   * @param dataFile the data file it applies to, for messages
   */
  static RoaringBitmap decode(String puffinFile, long offset, byte[] blob, String dataFile)
      throws IOException {
    String where = "deletion vector at offset %d of %s".formatted(offset, puffinFile);
    if (blob.length < MIN_LENGTH) {
      throw corrupt(
          puffinFile, where, "it has %d bytes, fewer than %d".formatted(blob.length, MIN_LENGTH));
    }
    ByteBuffer bytes = ByteBuffer.wrap(blob).order(ByteOrder.BIG_ENDIAN);
    int length = bytes.getInt(0);
    if (length != blob.length - 8) {
      throw corrupt(
          puffinFile,
          where,
          "its length field says %d bytes of magic and vector but the blob holds %d"
              .formatted(length, blob.length - 8));
    }
    int magic = bytes.getInt(4);
    if (magic != MAGIC) {
      throw corrupt(
          puffinFile,
          where,
          "its magic is %08X, not D1D33964 (is the offset right?)".formatted(magic));
    }
    CRC32 crc = new CRC32();
    crc.update(blob, 4, length);
    int expected = bytes.getInt(4 + length);
    if ((int) crc.getValue() != expected) {
      throw corrupt(
          puffinFile,
          where,
          "its CRC-32 is %08X but the blob records %08X".formatted((int) crc.getValue(), expected));
    }
    return vector(puffinFile, where, ByteBuffer.wrap(blob, 8, length - 4).slice(), dataFile);
  }

  private static RoaringBitmap vector(
      String puffinFile, String where, ByteBuffer vector, String dataFile) throws IOException {
    vector.order(ByteOrder.LITTLE_ENDIAN);
    if (vector.remaining() < 8) {
      throw corrupt(puffinFile, where, "its vector has no bitmap count");
    }
    long count = vector.getLong();
    if (count < 0 || count > vector.remaining() / 4) {
      throw corrupt(
          puffinFile,
          where,
          "it claims %d bitmaps in %d bytes".formatted(count, vector.remaining()));
    }
    RoaringBitmap positions = new RoaringBitmap();
    for (long i = 0; i < count; i++) {
      if (vector.remaining() < 4) {
        throw corrupt(puffinFile, where, "bitmap %d has no key".formatted(i));
      }
      int key = vector.getInt();
      RoaringBitmap bitmap = new RoaringBitmap();
      try {
        bitmap.deserialize(vector.slice().order(ByteOrder.LITTLE_ENDIAN));
      } catch (IOException | RuntimeException e) {
        throw new CorruptDeletesException(
            puffinFile,
            "Cannot read %s: bitmap %d is not a valid RoaringBitmap (%s)".formatted(where, i, e),
            e);
      }
      int size = bitmap.serializedSizeInBytes();
      if (size > vector.remaining()) {
        throw corrupt(
            puffinFile,
            where,
            "bitmap %d needs %d bytes but %d remain".formatted(i, size, vector.remaining()));
      }
      vector.position(vector.position() + size);
      if (bitmap.isEmpty()) {
        continue;
      }
      if (key != 0) {
        throw new UnsupportedDeletesException(
            puffinFile,
            dataFile,
            ("Cannot apply %s to data file %s: it deletes positions of 2^32 and above (key %d),"
                    + " and Shelfmark reads data files of at most 2^31 - 1 rows (split the file)")
                .formatted(where, dataFile, Integer.toUnsignedLong(key)));
      }
      positions.or(bitmap);
    }
    if (vector.hasRemaining()) {
      throw corrupt(
          puffinFile, where, "%d bytes follow its last bitmap".formatted(vector.remaining()));
    }
    return positions;
  }

  private static CorruptDeletesException corrupt(String puffinFile, String where, String what) {
    return new CorruptDeletesException(puffinFile, "Cannot read %s: %s".formatted(where, what));
  }
}
