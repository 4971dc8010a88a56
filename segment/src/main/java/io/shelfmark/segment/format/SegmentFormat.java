package io.shelfmark.segment.format;

/**
 * Constants of the segment container (see {@code docs/segment-format.md}).
 *
 * <pre>
 * offset 0        header (16 bytes)
 *                 magic[8] | major u16 | minor u16 | flags u32 (0)
 * 16              parts, each at an 8-byte aligned offset, zero padding between them
 *                 (column parts first, then per-file parts, statistics, metadata last)
 * tocOffset       table of contents (tocLength bytes)
 *                 count u32 | per part: kind (u8 length + ASCII) | name (u16 length + UTF-8)
 *                           | version u16 | offset u64 | length u64 | crc32c u32
 * size - 32       trailer (32 bytes)
 *                 tocOffset u64 | tocLength u32 | tocCrc32c u32 | major u16 | minor u16
 *                 | reserved u32 (0) | magic[8]
 * </pre>
 *
 * <p>All integers are little-endian. The trailer has a fixed size at a fixed place so that a remote
 * reader gets the trailer, the table of contents and (since it is written last) the metadata part
 * in one ranged read of the file's tail.
 *
 * <p>Compatibility: a reader opens segments of its own major version with any minor version; a
 * newer minor version may add part kinds, which older readers ignore. A newer major version is
 * refused with {@link UnsupportedSegmentVersionException}. Each part carries its own layout
 * version: a core part newer than the reader knows is refused; a newer index part is skipped (the
 * index is an accelerator: the query falls back to reading Parquet for that predicate).
 */
public final class SegmentFormat {
  /**
   * The first and last 8 bytes of every segment: non-ASCII first byte, CR LF and EOF to catch
   * text-mode mangling.
   */
  static final byte[] MAGIC = {(byte) 0x89, 'S', 'H', 'F', 'M', '\r', '\n', 0x1A};

  public static final int MAJOR_VERSION = 1;
  public static final int MINOR_VERSION = 0;

  public static final int HEADER_SIZE = 16;
  public static final int TRAILER_SIZE = 32;

  /** Parts start at multiples of this, so fixed-width arrays inside them can be read aligned. */
  public static final int PART_ALIGNMENT = 8;

  /** The largest table of contents a reader accepts: guards allocations sized by corrupt input. */
  public static final int MAX_TOC_BYTES = 64 << 20;

  private SegmentFormat() {}

  /** The magic number (a copy). */
  public static byte[] magic() {
    return MAGIC.clone();
  }
}
