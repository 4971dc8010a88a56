package io.shelfmark.segment.format;

import static java.util.Objects.requireNonNull;

/**
 * One entry of a segment's table of contents.
 *
 * @param key the part's kind and name
 * @param version the part's own layout version, set by whoever wrote it (0 to 65535)
 * @param offset the part's first byte in the file
 * @param length the part's length in bytes
 * @param crc32c the CRC32C of the part's bytes, as an unsigned 32-bit value in an int
 */
public record TocEntry(PartKey key, int version, long offset, long length, int crc32c) {
  public TocEntry {
    requireNonNull(key, "key is null");
    if (version < 0 || version > 0xFFFF) {
      throw new IllegalArgumentException(
          "Cannot use part version %d for %s (0 to 65535)".formatted(version, key));
    }
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "Cannot place part %s at offset %d with length %d".formatted(key, offset, length));
    }
  }

  /** The offset just past the part. */
  public long end() {
    return offset + length;
  }

  @Override
  public String toString() {
    return "%s v%d @%d+%d".formatted(key, version, offset, length);
  }
}
