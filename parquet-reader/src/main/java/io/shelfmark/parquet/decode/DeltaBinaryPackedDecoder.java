package io.shelfmark.parquet.decode;

import io.shelfmark.parquet.batch.ColumnBatch;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePackerForLong;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * DELTA_BINARY_PACKED for INT32 and INT64, and the lengths inside DELTA_LENGTH_BYTE_ARRAY and
 * DELTA_BYTE_ARRAY.
 *
 * <pre>
 *   header: block size, miniblocks per block, total value count (ULEB128), first value (zigzag)
 *   block:  min delta (zigzag ULEB128), one bit width byte per miniblock, the miniblocks
 *           (values per miniblock x bit width bits each; none after the last value)
 * </pre>
 *
 * Arithmetic wraps as the writer's did: INT32 values are computed in 64 bits and truncated, which
 * gives the same result modulo 2^32. Values are decoded a miniblock at a time into a reused buffer.
 * Not thread safe.
 */
final class DeltaBinaryPackedDecoder implements ValueDecoder {
  /** Larger miniblocks are refused: writers use 32 or 64 values; this bounds the buffer. */
  static final int MAX_VALUES_PER_MINIBLOCK = 1 << 14;

  private static final int CHUNK = 1024;

  private final byte[] data;
  private final ByteBuffer buffer;
  private final int end;
  private final boolean int32;
  private final int miniblocks;
  private final int valuesPerMiniblock;
  private final long totalCount;
  private final int headerEnd;
  private final byte[] bitWidths;
  private final long[] miniblock;
  private int position;
  private long remaining;
  private boolean firstPending;
  private long last;
  private long minDelta;
  private int nextMiniblock;
  private int miniblockIndex;
  private int miniblockSize;
  private int[] ints;
  private long[] longs;

  DeltaBinaryPackedDecoder(byte[] data, int offset, int end, boolean int32)
      throws MalformedPageException {
    this.data = data;
    this.buffer = ByteBuffer.wrap(data);
    this.end = end;
    this.int32 = int32;
    this.position = offset;
    long blockSize = readUnsignedVarLong();
    long miniblockCount = readUnsignedVarLong();
    this.totalCount = readUnsignedVarLong();
    long first = readZigZagVarLong();
    if (blockSize <= 0
        || blockSize % 128 != 0
        || miniblockCount <= 0
        || blockSize % miniblockCount != 0
        || (blockSize / miniblockCount) % 32 != 0
        || blockSize / miniblockCount > MAX_VALUES_PER_MINIBLOCK) {
      throw new MalformedPageException(
          "DELTA_BINARY_PACKED header has block size %d and %d miniblocks (the block size must be a multiple of 128, with miniblocks of a multiple of 32 values, at most %d)"
              .formatted(blockSize, miniblockCount, MAX_VALUES_PER_MINIBLOCK));
    }
    if (totalCount > Integer.MAX_VALUE) {
      throw new MalformedPageException(
          "DELTA_BINARY_PACKED header declares %d values".formatted(totalCount));
    }
    this.miniblocks = (int) miniblockCount;
    this.valuesPerMiniblock = (int) (blockSize / miniblockCount);
    this.headerEnd = position;
    this.bitWidths = new byte[miniblocks];
    this.miniblock = new long[valuesPerMiniblock];
    this.remaining = totalCount;
    this.firstPending = totalCount > 0;
    this.last = first;
    this.nextMiniblock = miniblocks; // a block header comes first
  }

  /** The number of values the header declares. */
  long totalCount() {
    return totalCount;
  }

  /**
   * The offset just past the encoded values, found by walking block headers without unpacking;
   * DELTA_LENGTH_BYTE_ARRAY's bytes start there.
   */
  int endOffset() throws MalformedPageException {
    int cursor = headerEnd;
    long deltas = Math.max(0, totalCount - 1);
    while (deltas > 0) {
      cursor = skipVarLong(cursor);
      if (end - cursor < miniblocks) {
        throw new MalformedPageException("DELTA_BINARY_PACKED block header is cut off");
      }
      int widths = cursor;
      cursor += miniblocks;
      for (int i = 0; i < miniblocks && deltas > 0; i++) {
        int bitWidth = data[widths + i] & 0xFF;
        if (bitWidth > 64) {
          throw new MalformedPageException(
              "DELTA_BINARY_PACKED miniblock bit width is %d (at most 64)".formatted(bitWidth));
        }
        cursor += valuesPerMiniblock / 8 * bitWidth;
        deltas -= valuesPerMiniblock;
        if (cursor > end) {
          throw new MalformedPageException(
              "DELTA_BINARY_PACKED data of %d values runs past the end of the page"
                  .formatted(totalCount));
        }
      }
    }
    return cursor;
  }

  /** The next value. */
  long nextLong() throws MalformedPageException {
    if (remaining == 0) {
      throw new MalformedPageException(
          "DELTA_BINARY_PACKED data holds only %d values".formatted(totalCount));
    }
    if (firstPending) {
      firstPending = false;
      remaining--;
      return int32 ? (int) last : last;
    }
    if (miniblockIndex == miniblockSize) {
      loadMiniblock();
    }
    remaining--;
    long value = miniblock[miniblockIndex++];
    return int32 ? (int) value : value;
  }

  /**
   * The next {@code count} values into {@code out[offset ..]}, copied a miniblock run at a time
   * (not truncated for INT32: callers cast).
   */
  private void readLongs(long[] out, int offset, int count) throws MalformedPageException {
    if (count > remaining) {
      throw new MalformedPageException(
          "DELTA_BINARY_PACKED data holds only %d values".formatted(totalCount));
    }
    int done = 0;
    if (count > 0 && firstPending) {
      firstPending = false;
      remaining--;
      out[offset] = last;
      done = 1;
    }
    while (done < count) {
      if (miniblockIndex == miniblockSize) {
        loadMiniblock();
      }
      int n = Math.min(count - done, miniblockSize - miniblockIndex);
      System.arraycopy(miniblock, miniblockIndex, out, offset + done, n);
      miniblockIndex += n;
      remaining -= n;
      done += n;
    }
  }

  @Override
  public void read(int count, ColumnBatch.Builder out) throws MalformedPageException {
    if (longs == null) {
      longs = new long[CHUNK];
    }
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      readLongs(longs, 0, n);
      if (int32) {
        if (ints == null) {
          ints = new int[CHUNK];
        }
        for (int i = 0; i < n; i++) {
          ints[i] = (int) longs[i];
        }
        out.appendInts(ints, 0, n);
      } else {
        out.appendLongs(longs, 0, n);
      }
      count -= n;
    }
  }

  @Override
  public void skip(int count) throws MalformedPageException {
    // Each value is the previous plus a delta: skipping still sums the deltas.
    if (longs == null) {
      longs = new long[CHUNK];
    }
    while (count > 0) {
      int n = Math.min(count, CHUNK);
      readLongs(longs, 0, n);
      count -= n;
    }
  }

  private void loadMiniblock() throws MalformedPageException {
    if (nextMiniblock == miniblocks) {
      minDelta = readZigZagVarLong();
      if (end - position < miniblocks) {
        throw new MalformedPageException("DELTA_BINARY_PACKED block header is cut off");
      }
      System.arraycopy(data, position, bitWidths, 0, miniblocks);
      position += miniblocks;
      nextMiniblock = 0;
    }
    int bitWidth = bitWidths[nextMiniblock++] & 0xFF;
    if (bitWidth > 64) {
      throw new MalformedPageException(
          "DELTA_BINARY_PACKED miniblock bit width is %d (at most 64)".formatted(bitWidth));
    }
    int bytes = valuesPerMiniblock / 8 * bitWidth;
    int needed = (int) Math.min(valuesPerMiniblock, remaining);
    if (bytes > end - position) {
      // Only a final miniblock may lack padding, and only past the values still needed.
      if ((long) needed * bitWidth > (long) (end - position) * 8) {
        throw new MalformedPageException(
            "DELTA_BINARY_PACKED miniblock of %d bytes runs past the end of the page"
                .formatted(bytes));
      }
      byte[] padded = Arrays.copyOfRange(data, position, position + bytes);
      unpack(ByteBuffer.wrap(padded), 0, bitWidth);
      position = end;
    } else {
      unpack(buffer, position, bitWidth);
      position += bytes;
    }
    long value = last;
    for (int i = 0; i < valuesPerMiniblock; i++) {
      value += minDelta + miniblock[i];
      miniblock[i] = value;
    }
    last = value;
    // Only the values still declared are served; the rest of a final miniblock is padding.
    miniblockIndex = 0;
    miniblockSize = valuesPerMiniblock;
  }

  private void unpack(ByteBuffer source, int offset, int bitWidth) {
    if (bitWidth == 0) {
      // parquet-java's width-0 packer writes nothing: the deltas are all zero.
      Arrays.fill(miniblock, 0L);
      return;
    }
    BytePackerForLong packer = Packer.LITTLE_ENDIAN.newBytePackerForLong(bitWidth);
    for (int i = 0; i < valuesPerMiniblock; i += 8) {
      packer.unpack8Values(source, offset + i / 8 * bitWidth, miniblock, i);
    }
  }

  private long readUnsignedVarLong() throws MalformedPageException {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (position >= end) {
        throw new MalformedPageException("DELTA_BINARY_PACKED header is cut off");
      }
      int b = data[position++] & 0xFF;
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new MalformedPageException("DELTA_BINARY_PACKED varint is longer than 10 bytes");
  }

  private long readZigZagVarLong() throws MalformedPageException {
    long raw = readUnsignedVarLong();
    return (raw >>> 1) ^ -(raw & 1);
  }

  private int skipVarLong(int cursor) throws MalformedPageException {
    for (int i = 0; i < 10; i++) {
      if (cursor >= end) {
        throw new MalformedPageException("DELTA_BINARY_PACKED block header is cut off");
      }
      if ((data[cursor++] & 0x80) == 0) {
        return cursor;
      }
    }
    throw new MalformedPageException("DELTA_BINARY_PACKED varint is longer than 10 bytes");
  }
}
