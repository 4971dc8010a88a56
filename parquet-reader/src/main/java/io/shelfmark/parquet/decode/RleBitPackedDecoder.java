package io.shelfmark.parquet.decode;

import java.util.Arrays;

/**
 * Reads Parquet's RLE / bit-packing hybrid (levels, dictionary ids, RLE booleans): runs, each a
 * ULEB128 header whose low bit says bit-packed (groups of 8 values, {@code bitWidth} bits each,
 * least significant bit first) or repeated (one value of {@code ceil(bitWidth / 8)} bytes, {@code
 * header >>> 1} times). Runs are consumed lazily, so a hostile run length costs nothing until
 * values are asked for. Not thread safe.
 */
final class RleBitPackedDecoder {
  private final byte[] data;
  private final int end;
  private final int bitWidth;
  private final int byteWidth;
  private final int[] group = new int[8];
  private final byte[] padded;
  private int position;
  private int repeatRemaining;
  private int repeatValue;
  private int packedRemaining; // values left in the current bit-packed run, buffered ones included
  private int groupIndex = 8; // next value in group; 8 means the group is consumed

  RleBitPackedDecoder(byte[] data, int offset, int end, int bitWidth)
      throws MalformedPageException {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new MalformedPageException(
          "RLE/bit-packed bit width is %d (must be 0 to 32)".formatted(bitWidth));
    }
    if (offset < 0 || end > data.length || offset > end) {
      throw new MalformedPageException(
          "RLE/bit-packed data range [%d, %d) is outside the page of %d bytes"
              .formatted(offset, end, data.length));
    }
    this.data = data;
    this.position = offset;
    this.end = end;
    this.bitWidth = bitWidth;
    this.byteWidth = (bitWidth + 7) / 8;
    this.padded = new byte[Math.max(bitWidth, 1)];
  }

  /** Reads the next {@code count} values into {@code out[offset ..]}. */
  void read(int[] out, int offset, int count) throws MalformedPageException {
    int done = 0;
    while (done < count) {
      if (repeatRemaining > 0) {
        int n = Math.min(count - done, repeatRemaining);
        Arrays.fill(out, offset + done, offset + done + n, repeatValue);
        repeatRemaining -= n;
        done += n;
      } else if (packedRemaining > 0) {
        done += readPacked(out, offset + done, count - done);
      } else {
        nextRun(count - done);
      }
    }
  }

  /** Skips the next {@code count} values. */
  void skip(int count) throws MalformedPageException {
    int done = 0;
    while (done < count) {
      if (repeatRemaining > 0) {
        int n = Math.min(count - done, repeatRemaining);
        repeatRemaining -= n;
        done += n;
      } else if (packedRemaining > 0) {
        int buffered = 8 - groupIndex;
        if (buffered > 0) {
          int n = Math.min(count - done, buffered);
          groupIndex += n;
          packedRemaining -= n;
          done += n;
        } else if (count - done >= 8 && packedRemaining >= 8) {
          // Whole groups are skipped without unpacking: 8 values take bitWidth bytes.
          int groups = Math.min(count - done, packedRemaining) / 8;
          position += groups * bitWidth;
          packedRemaining -= groups * 8;
          done += groups * 8;
        } else {
          unpackGroup();
        }
      } else {
        nextRun(count - done);
      }
    }
  }

  /**
   * Whether the values left are exactly {@code count} of {@code value}, in repeated runs only (a
   * bit-packed run answers false without being unpacked). Consumes the runs it reads: use a fresh
   * decoder. Malformed data answers false.
   */
  boolean isOnlyRepeatsOf(int value, int count) {
    long seen = 0;
    while (seen < count) {
      if (position >= end) {
        return false;
      }
      try {
        nextRun((int) (count - seen));
      } catch (MalformedPageException e) {
        return false;
      }
      if (packedRemaining > 0 || repeatValue != value) {
        return false;
      }
      seen += repeatRemaining;
      repeatRemaining = 0;
    }
    return seen == count;
  }

  private int readPacked(int[] out, int offset, int count) throws MalformedPageException {
    int buffered = 8 - groupIndex;
    if (buffered > 0) {
      int n = Math.min(Math.min(count, buffered), packedRemaining);
      System.arraycopy(group, groupIndex, out, offset, n);
      groupIndex += n;
      packedRemaining -= n;
      return n;
    }
    int groups = Math.min(count, packedRemaining) / 8;
    if (bitWidth > 0) {
      groups = Math.min(groups, (end - position) / bitWidth);
    }
    if (groups == 0) {
      unpackGroup();
      return 0;
    }
    if (bitWidth == 0) {
      // parquet-java's width-0 packer writes nothing: every value is zero.
      Arrays.fill(out, offset, offset + groups * 8, 0);
    } else {
      for (int g = 0; g < groups; g++) {
        BitUnpacking.unpack8(data, position, bitWidth, out, offset + g * 8);
        position += bitWidth;
      }
    }
    packedRemaining -= groups * 8;
    return groups * 8;
  }

  /** Unpacks the next group of 8 into the buffer, zero-padding a group the data cuts short. */
  private void unpackGroup() {
    if (bitWidth == 0) {
      Arrays.fill(group, 0);
    } else if (end - position >= bitWidth) {
      BitUnpacking.unpack8(data, position, bitWidth, group, 0);
      position += bitWidth;
    } else {
      Arrays.fill(padded, (byte) 0);
      System.arraycopy(data, position, padded, 0, end - position);
      BitUnpacking.unpack8(padded, 0, bitWidth, group, 0);
      position = end;
    }
    groupIndex = 0;
  }

  private void nextRun(int wanted) throws MalformedPageException {
    if (position >= end) {
      throw new MalformedPageException(
          "RLE/bit-packed data ends with %d values still to read".formatted(wanted));
    }
    groupIndex = 8;
    int header = readUnsignedVarInt();
    if ((header & 1) == 0) {
      repeatRemaining = header >>> 1;
      if (end - position < byteWidth) {
        throw new MalformedPageException("RLE run value is cut off by the end of the data");
      }
      int value = 0;
      for (int i = 0; i < byteWidth; i++) {
        value |= (data[position + i] & 0xFF) << (8 * i);
      }
      position += byteWidth;
      if (bitWidth < 32 && (value >>> bitWidth) != 0) {
        throw new MalformedPageException(
            "RLE run value %d does not fit in %d bits".formatted(value, bitWidth));
      }
      repeatValue = value;
    } else {
      long values = (long) (header >>> 1) * 8;
      // A final run may be cut short by the end of the data (writers pad the last group only):
      // only the values whose bits are present can be read.
      long present =
          bitWidth == 0 ? values : Math.min(values, (long) (end - position) * 8 / bitWidth);
      if (present == 0 && values > 0) {
        throw new MalformedPageException(
            "bit-packed run of %d values has no data left".formatted(values));
      }
      packedRemaining = (int) Math.min(Integer.MAX_VALUE, present);
      groupIndex = 8;
    }
  }

  private int readUnsignedVarInt() throws MalformedPageException {
    int value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (position >= end) {
        throw new MalformedPageException("RLE/bit-packed run header is cut off");
      }
      int b = data[position++] & 0xFF;
      value |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new MalformedPageException("RLE/bit-packed run header is longer than 5 bytes");
  }

  /** The number of bits needed for values up to {@code max}. */
  static int bitWidth(int max) {
    return 32 - Integer.numberOfLeadingZeros(max);
  }
}
