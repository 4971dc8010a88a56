package io.shelfmark.storage.coalesce;

/**
 * A run of bytes in one object: {@code [offset, offset + length)}.
 *
 * @param offset the first byte, from the start of the object
 * @param length how many bytes; zero is allowed (an empty range reads nothing)
 */
public record ByteRange(long offset, long length) implements Comparable<ByteRange> {
  public ByteRange {
    if (offset < 0) {
      throw new IllegalArgumentException("Cannot make byte range: offset " + offset + " < 0");
    }
    if (length < 0) {
      throw new IllegalArgumentException(
          "Cannot make byte range at " + offset + ": length " + length + " < 0");
    }
    if (offset > Long.MAX_VALUE - length) {
      throw new IllegalArgumentException(
          "Cannot make byte range at " + offset + ": length " + length + " overflows a long");
    }
  }

  /** The range from {@code offset} (inclusive) to {@code end} (exclusive). */
  public static ByteRange between(long offset, long end) {
    if (end < offset) {
      throw new IllegalArgumentException(
          "Cannot make byte range: end " + end + " is before offset " + offset);
    }
    return new ByteRange(offset, end - offset);
  }

  /** One past the last byte. */
  public long end() {
    return offset + length;
  }

  public boolean isEmpty() {
    return length == 0;
  }

  /** Whether every byte of {@code other} lies inside this range. */
  public boolean contains(ByteRange other) {
    return other.offset >= offset && other.end() <= end();
  }

  /** By offset, then by length: the order in which ranges are coalesced. */
  @Override
  public int compareTo(ByteRange other) {
    int byOffset = Long.compare(offset, other.offset);
    return byOffset != 0 ? byOffset : Long.compare(length, other.length);
  }

  @Override
  public String toString() {
    return "[" + offset + ", " + end() + ")";
  }
}
