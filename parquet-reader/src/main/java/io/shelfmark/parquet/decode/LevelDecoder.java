package io.shelfmark.parquet.decode;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;
import org.apache.parquet.format.Encoding;

/** Decodes a page's repetition or definition levels and checks them against the maximum. */
final class LevelDecoder {
  private LevelDecoder() {}

  /**
   * Decodes data page v1 levels starting at {@code offset}: RLE (a 4-byte length, then the hybrid)
   * or the deprecated BIT_PACKED (big-endian, no length).
   *
   * @return the offset just past the levels
   */
  static int decodeV1(
      String kind,
      Encoding encoding,
      byte[] data,
      int offset,
      int end,
      int maxLevel,
      int[] out,
      int count)
      throws MalformedPageException, UnsupportedPageException {
    int bitWidth = RleBitPackedDecoder.bitWidth(maxLevel);
    if (encoding == Encoding.RLE) {
      if (end - offset < 4) {
        throw new MalformedPageException(kind + " levels have no length prefix");
      }
      int length = LittleEndianBytes.getInt(data, offset);
      if (length < 0 || length > end - offset - 4) {
        throw new MalformedPageException(
            "%s levels take %d bytes but only %d are left in the page"
                .formatted(kind, length & 0xFFFFFFFFL, end - offset - 4));
      }
      decodeHybrid(kind, data, offset + 4, offset + 4 + length, maxLevel, out, count);
      return offset + 4 + length;
    }
    if (encoding == Encoding.BIT_PACKED) {
      long bytes = ((long) count * bitWidth + 7) / 8;
      if (bytes > end - offset) {
        throw new MalformedPageException(
            "%s levels take %d bytes but only %d are left in the page"
                .formatted(kind, bytes, end - offset));
      }
      unpackBigEndian(data, offset, bitWidth, out, count);
      check(kind, out, count, maxLevel);
      return offset + (int) bytes;
    }
    throw new UnsupportedPageException(
        "%s level encoding %s".formatted(kind, encoding), "levels must be RLE or BIT_PACKED");
  }

  /**
   * Whether hybrid-encoded levels in {@code [offset, end)} are only repeated runs of {@code level}
   * holding exactly {@code count} values: a page of a column without nulls, whose levels need not
   * be materialised (parquet-java and most writers encode it as one run). Anything else, malformed
   * data included, answers false and is left to {@link #decodeHybrid}, which names the problem.
   */
  static boolean allAt(byte[] data, int offset, int end, int level, int count) {
    try {
      return new RleBitPackedDecoder(data, offset, end, RleBitPackedDecoder.bitWidth(level))
          .isOnlyRepeatsOf(level, count);
    } catch (MalformedPageException e) {
      return false;
    }
  }

  /**
   * The offset just past data page v1 levels when they are RLE runs of {@code level} only, for
   * {@code count} values (see {@link #allAt}); -1 otherwise.
   */
  static int pastV1LevelsAllAt(
      Encoding encoding, byte[] data, int offset, int end, int level, int count) {
    if (encoding != Encoding.RLE || end - offset < 4) {
      return -1;
    }
    int length = LittleEndianBytes.getInt(data, offset);
    if (length < 0 || length > end - offset - 4) {
      return -1;
    }
    return allAt(data, offset + 4, offset + 4 + length, level, count) ? offset + 4 + length : -1;
  }

  /** Decodes levels in the RLE / bit-packing hybrid without a length prefix (data page v2). */
  static void decodeHybrid(
      String kind, byte[] data, int offset, int end, int maxLevel, int[] out, int count)
      throws MalformedPageException {
    RleBitPackedDecoder decoder =
        new RleBitPackedDecoder(data, offset, end, RleBitPackedDecoder.bitWidth(maxLevel));
    try {
      decoder.read(out, 0, count);
    } catch (MalformedPageException e) {
      throw new MalformedPageException(kind + " levels: " + e.getMessage());
    }
    check(kind, out, count, maxLevel);
  }

  private static void check(String kind, int[] levels, int count, int maxLevel)
      throws MalformedPageException {
    for (int i = 0; i < count; i++) {
      if (levels[i] > maxLevel || levels[i] < 0) {
        throw new MalformedPageException(
            "%s level %d at position %d exceeds the column's maximum %d"
                .formatted(kind, levels[i], i, maxLevel));
      }
    }
  }

  private static void unpackBigEndian(byte[] data, int offset, int bitWidth, int[] out, int count) {
    BytePacker packer = Packer.BIG_ENDIAN.newBytePacker(bitWidth);
    int[] group = new int[8];
    byte[] padded = new byte[Math.max(bitWidth, 1)];
    ByteBuffer source = ByteBuffer.wrap(data);
    int position = offset;
    for (int i = 0; i < count; i += 8) {
      int n = Math.min(8, count - i);
      if (n == 8) {
        packer.unpack8Values(source, position, out, i);
      } else {
        Arrays.fill(padded, (byte) 0);
        int bytes = (n * bitWidth + 7) / 8;
        System.arraycopy(data, position, padded, 0, bytes);
        packer.unpack8Values(ByteBuffer.wrap(padded), 0, group, 0);
        System.arraycopy(group, 0, out, i, n);
      }
      position += bitWidth;
    }
  }
}
