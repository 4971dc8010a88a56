package io.shelfmark.storage.coalesce;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Where one requested range's bytes are found among the merged reads of a {@link CoalescedPlan}:
 * one slice when the range fits in one read (the common case), several consecutive slices when it
 * was split because it exceeds the maximum buffer size.
 *
 * @param requested the range the caller asked for
 * @param slices the pieces, in order; their lengths add up to the requested length (none for an
 *     empty range)
 */
public record CoalescedRead(ByteRange requested, List<Slice> slices) {
  public CoalescedRead {
    requireNonNull(requested, "requested is null");
    slices = ImmutableList.copyOf(requireNonNull(slices, "slices is null"));
    long total = 0;
    for (Slice slice : slices) {
      total += slice.length();
    }
    if (total != requested.length()) {
      throw new IllegalArgumentException(
          "Cannot map " + requested + ": slices " + slices + " cover " + total + " bytes");
    }
  }

  /**
   * The requested bytes, given the bytes of every merged read ({@code readData.get(i)} holds read
   * {@code i} of the plan). A range inside one read is a view over that read's array (no copy); a
   * split range is copied into a new array.
   */
  public ByteBuffer bytes(List<byte[]> readData) {
    requireNonNull(readData, "readData is null");
    if (slices.size() == 1) {
      Slice slice = slices.getFirst();
      return ByteBuffer.wrap(
              data(readData, slice), (int) slice.offsetInRead(), (int) slice.length())
          .slice();
    }
    byte[] copy = new byte[Math.toIntExact(requested.length())];
    int position = 0;
    for (Slice slice : slices) {
      System.arraycopy(
          data(readData, slice), (int) slice.offsetInRead(), copy, position, (int) slice.length());
      position += (int) slice.length();
    }
    return ByteBuffer.wrap(copy);
  }

  private static byte[] data(List<byte[]> readData, Slice slice) {
    if (slice.readIndex() >= readData.size()) {
      throw new IllegalArgumentException(
          "Cannot slice read " + slice.readIndex() + ": only " + readData.size() + " reads given");
    }
    byte[] data = readData.get(slice.readIndex());
    if (slice.offsetInRead() + slice.length() > data.length) {
      throw new IllegalArgumentException(
          "Cannot slice read "
              + slice.readIndex()
              + ": it holds "
              + data.length
              + " bytes but the slice ends at "
              + (slice.offsetInRead() + slice.length()));
    }
    return data;
  }

  /**
   * A piece of a requested range inside one merged read.
   *
   * @param readIndex which read of {@link CoalescedPlan#reads()}
   * @param offsetInRead where the piece starts, from the start of that read
   * @param length how many bytes
   */
  public record Slice(int readIndex, long offsetInRead, long length) {
    public Slice {
      if (readIndex < 0 || offsetInRead < 0 || length <= 0) {
        throw new IllegalArgumentException(
            "Cannot make slice: read "
                + readIndex
                + ", offset "
                + offsetInRead
                + ", length "
                + length
                + " (expected read >= 0, offset >= 0, length > 0)");
      }
    }
  }
}
