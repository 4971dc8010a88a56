package io.shelfmark.segment.read;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.SegmentFormat;
import io.shelfmark.segment.format.TableOfContents;
import io.shelfmark.segment.format.UnsupportedSegmentVersionException;
import io.shelfmark.segment.source.SegmentSource;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/** Reads and checks the container's ends: the trailer and table of contents, and the header. */
final class SegmentTail {
  private SegmentTail() {}

  /**
   * What the tail read found.
   *
   * @param tailOffset the file offset of {@code tail}'s first byte
   * @param tail the bytes read from the end of the file
   * @param tocOffset the table of contents' offset
   * @param toc the checked table of contents
   */
  record Located(long tailOffset, ByteBuffer tail, long tocOffset, TableOfContents toc) {}

  static Located read(SegmentSource source, long size, int tailBytes) throws IOException {
    String name = source.name();
    if (size < SegmentFormat.HEADER_SIZE + SegmentFormat.TRAILER_SIZE) {
      throw new CorruptSegmentException(
          name,
          "",
          0,
          "file of %d bytes is shorter than a segment's header and trailer (truncated or not a segment)"
              .formatted(size));
    }
    int tailLength = (int) Math.min(size, tailBytes);
    long tailOffset = size - tailLength;
    ByteBuffer tail = source.read(tailOffset, tailLength).order(ByteOrder.LITTLE_ENDIAN);
    long trailerOffset = size - SegmentFormat.TRAILER_SIZE;
    PartReader trailer =
        new PartReader(
            name,
            "",
            trailerOffset,
            tail.slice(tailLength - SegmentFormat.TRAILER_SIZE, SegmentFormat.TRAILER_SIZE));
    long tocOffset = trailer.getLong();
    int tocLength = trailer.getInt();
    int tocCrc = trailer.getInt();
    int major = trailer.getShort();
    int minor = trailer.getShort();
    trailer.getInt();
    byte[] magic = trailer.getBytes(8);
    if (!Arrays.equals(magic, SegmentFormat.magic())) {
      throw new CorruptSegmentException(
          name,
          "",
          size - 8,
          "no segment magic number at the end of the file (truncated, or not a segment)");
    }
    checkVersion(name, major, minor);
    if (tocOffset < SegmentFormat.HEADER_SIZE
        || tocLength < 4
        || tocLength > SegmentFormat.MAX_TOC_BYTES
        || tocOffset + tocLength != trailerOffset) {
      throw new CorruptSegmentException(
          name,
          "",
          trailerOffset,
          "trailer places the table of contents at %d with %d bytes, but it must end at %d"
              .formatted(tocOffset, tocLength, trailerOffset));
    }
    ByteBuffer tocBytes =
        tocOffset >= tailOffset
            ? tail.slice((int) (tocOffset - tailOffset), tocLength)
            : source.read(tocOffset, tocLength);
    CRC32C crc = new CRC32C();
    crc.update(tocBytes.duplicate());
    if ((int) crc.getValue() != tocCrc) {
      throw new CorruptSegmentException(
          name,
          "",
          tocOffset,
          "table of contents checksum mismatch: trailer says %08x, bytes have %08x"
              .formatted(tocCrc, (int) crc.getValue()));
    }
    TableOfContents toc = TableOfContents.deserialize(name, tocOffset, tocBytes, tocOffset);
    return new Located(tailOffset, tail, tocOffset, toc);
  }

  /** Checks the magic number and version at the start (free for mapped and in-memory sources). */
  static void checkHeader(SegmentSource source, String name) throws IOException {
    PartReader header = new PartReader(name, "", 0, source.read(0, SegmentFormat.HEADER_SIZE));
    byte[] magic = header.getBytes(8);
    if (!Arrays.equals(magic, SegmentFormat.magic())) {
      throw new CorruptSegmentException(
          name, "", 0, "no segment magic number at the start of the file (not a segment)");
    }
    checkVersion(name, header.getShort(), header.getShort());
  }

  private static void checkVersion(String name, int major, int minor) throws IOException {
    if (major > SegmentFormat.MAJOR_VERSION) {
      throw new UnsupportedSegmentVersionException(
          name,
          "Cannot read segment %s: format version %d.%d was written by a newer Shelfmark (this reader reads %d.x; upgrade Shelfmark or rebuild the segment)"
              .formatted(name, major, minor, SegmentFormat.MAJOR_VERSION));
    }
    if (major < 1) {
      throw new CorruptSegmentException(
          name, "", 0, "format version %d.%d does not exist".formatted(major, minor));
    }
  }
}
