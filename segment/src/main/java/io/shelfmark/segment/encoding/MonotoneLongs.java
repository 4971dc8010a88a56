package io.shelfmark.segment.encoding;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.util.Arrays;

/**
 * A non-decreasing sequence of longs (signed order), compressed in blocks of {@value #BLOCK}
 * values: each block keeps its first value and bit-packs the gaps between neighbours at the block's
 * widest gap. Sorted dictionaries and sorted columns are such sequences; their gaps are far
 * narrower than the values. Random access decodes at most one block; searches binary-search the
 * block heads.
 *
 * <pre>
 * count varint | blocks varint | dataBytes varint
 * per block (13 bytes): first i64 | width u8 | dataOffset u32   (offset into the data area)
 * data area: per block, (values - 1) gaps of width bits, whole 64-bit words
 * </pre>
 *
 * <p>Gaps are unsigned differences, so a sequence spanning the whole long range still works. The
 * reader is immutable and thread safe.
 */
public final class MonotoneLongs {
  /** Values per block. */
  public static final int BLOCK = 128;

  private static final int HEAD_BYTES = 13;

  private final int count;
  private final int blocks;
  private final ByteBuffer heads;
  private final ByteBuffer data;
  private final LongBuffer dataWords;

  private MonotoneLongs(int count, int blocks, ByteBuffer heads, ByteBuffer data) {
    this.count = count;
    this.blocks = blocks;
    this.heads = heads;
    // Gap words are little-endian; this buffer is a slice only this reader holds.
    this.data = data.order(ByteOrder.LITTLE_ENDIAN);
    this.dataWords = this.data.asLongBuffer();
  }

  /** Writes {@code count} values, which must never decrease. */
  public static void write(PartWriter out, long[] values, int count) {
    requireNonNull(values, "values is null");
    int blocks = (count + BLOCK - 1) / BLOCK;
    PartWriter data = new PartWriter(Math.max(16, count));
    PartWriter heads = new PartWriter(blocks * HEAD_BYTES);
    long[] gaps = new long[BLOCK];
    for (int block = 0; block < blocks; block++) {
      int start = block * BLOCK;
      int end = Math.min(count, start + BLOCK);
      long widest = 0;
      for (int i = start + 1; i < end; i++) {
        if (values[i] < values[i - 1]) {
          throw new IllegalArgumentException(
              "Cannot encode a decreasing sequence: value %d is %d after %d"
                  .formatted(i, values[i], values[i - 1]));
        }
        long gap = values[i] - values[i - 1];
        gaps[i - start - 1] = gap;
        widest |= gap;
      }
      int width = BitPacking.bitWidth(widest);
      heads.putLong(values[start]).putByte(width).putInt(data.size());
      BitPacking.writeLongs(data, gaps, 0, end - start - 1, width);
    }
    out.putVarInt(count).putVarInt(blocks).putVarInt(data.size());
    out.putBytes(heads.toByteArray());
    out.putBytes(data.toByteArray());
  }

  /** Reads a sequence written by {@link #write}, checking its structure. */
  public static MonotoneLongs read(PartReader in) throws CorruptSegmentException {
    int count = in.getVarInt();
    int blocks = in.getVarInt();
    int dataBytes = in.getVarInt();
    if (blocks != (count + BLOCK - 1) / BLOCK) {
      throw in.corrupt(
          "%d values need %d blocks, not %d".formatted(count, (count + BLOCK - 1) / BLOCK, blocks));
    }
    if ((long) blocks * HEAD_BYTES > in.remaining()) {
      throw in.corrupt("%d block heads do not fit in %d bytes".formatted(blocks, in.remaining()));
    }
    ByteBuffer heads = in.slice(blocks * HEAD_BYTES);
    int headStart = in.position() - blocks * HEAD_BYTES;
    ByteBuffer data = in.slice(dataBytes);
    long previousFirst = Long.MIN_VALUE;
    for (int block = 0; block < blocks; block++) {
      long first = heads.getLong(block * HEAD_BYTES);
      int width = heads.get(block * HEAD_BYTES + 8) & 0xFF;
      long offset = heads.getInt(block * HEAD_BYTES + 9) & 0xFFFFFFFFL;
      int values = Math.min(BLOCK, count - block * BLOCK);
      long needed = BitPacking.wordCount(values - 1, Math.min(width, 64)) * 8L;
      if (width > 64 || offset % 8 != 0 || offset + needed > dataBytes || first < previousFirst) {
        in.position(headStart + block * HEAD_BYTES);
        throw in.corrupt(
            "block %d: first value %d, %d-bit gaps at data offset %d do not fit %d data bytes, are not whole words or decrease"
                .formatted(block, first, width, offset, dataBytes));
      }
      previousFirst = first;
    }
    return new MonotoneLongs(count, blocks, heads, data);
  }

  public int count() {
    return count;
  }

  /** The value at {@code index} (0 ≤ index &lt; count). */
  public long get(int index) {
    if (index < 0 || index >= count) {
      throw new IndexOutOfBoundsException("Cannot read value %d of %d".formatted(index, count));
    }
    int block = index / BLOCK;
    int steps = index - block * BLOCK;
    long value = first(block);
    if (steps > 0) {
      PackedLongs gaps = gaps(block);
      for (int i = 0; i < steps; i++) {
        value += gaps.get(i);
      }
    }
    return value;
  }

  /**
   * Decodes block {@code block} into {@code out}; returns the number of values. Allocates a scratch
   * array: callers decoding many blocks use {@link #decodeBlock(int, long[], long[])}.
   */
  public int decodeBlock(int block, long[] out) {
    return decodeBlock(block, out, new long[BLOCK]);
  }

  /**
   * Decodes block {@code block} into {@code out} (at least {@value #BLOCK} long), using {@code
   * words} (at least {@value #BLOCK} long) as scratch; returns the number of values. The block's
   * gap words are copied out of the (usually memory-mapped) buffer in one bulk read, then unpacked
   * from the array: a read per word from a mapped buffer pays a liveness check each time, which was
   * most of the cost of reading a sorted column's values.
   */
  public int decodeBlock(int block, long[] out, long[] words) {
    int values = Math.min(BLOCK, count - block * BLOCK);
    int head = block * HEAD_BYTES;
    long value = heads.getLong(head);
    out[0] = value;
    int width = heads.get(head + 8) & 0xFF;
    if (width == 0) {
      Arrays.fill(out, 1, values, value);
      return values;
    }
    int wordCount = BitPacking.wordCount(values - 1, width);
    // Offsets are whole words into the data area (write() emits whole 64-bit words per block).
    dataWords.get(heads.getInt(head + 9) >>> 3, words, 0, wordCount);
    long mask = width == 64 ? -1L : (1L << width) - 1;
    int position = 0;
    long word = words[0];
    int used = 0;
    for (int i = 1; i < values; i++) {
      if (used == 64) {
        word = words[++position];
        used = 0;
      }
      long gap = word >>> used;
      int available = 64 - used;
      if (available < width) {
        // The gap continues in the next word's low bits.
        word = words[++position];
        gap |= word << available;
        used = width - available;
      } else {
        used += width;
      }
      value += gap & mask;
      out[i] = value;
    }
    return values;
  }

  /** The first index whose value is at least {@code value} ({@code count} when none is). */
  public int lowerBound(long value) {
    return search(value, false);
  }

  /** The first index whose value is greater than {@code value} ({@code count} when none is). */
  public int upperBound(long value) {
    return search(value, true);
  }

  /** The index of {@code value}, or {@code -(insertionPoint) - 1}. */
  public int indexOf(long value) {
    int index = lowerBound(value);
    return index < count && get(index) == value ? index : -index - 1;
  }

  private int search(long value, boolean strictlyGreater) {
    // The first block whose head already satisfies the bound; the answer lies in the block before
    // it (whose head does not satisfy it) or is that block's first index.
    int low = 0;
    int high = blocks;
    while (low < high) {
      int middle = (low + high) >>> 1;
      long first = first(middle);
      boolean satisfies = strictlyGreater ? first > value : first >= value;
      if (satisfies) {
        high = middle;
      } else {
        low = middle + 1;
      }
    }
    if (low == 0) {
      return 0;
    }
    int block = low - 1;
    long[] decoded = new long[BLOCK];
    int values = decodeBlock(block, decoded);
    for (int i = 1; i < values; i++) {
      if (strictlyGreater ? decoded[i] > value : decoded[i] >= value) {
        return block * BLOCK + i;
      }
    }
    return Math.min(count, low * BLOCK);
  }

  private long first(int block) {
    return heads.getLong(block * HEAD_BYTES);
  }

  private PackedLongs gaps(int block) {
    int width = heads.get(block * HEAD_BYTES + 8) & 0xFF;
    int offset = heads.getInt(block * HEAD_BYTES + 9);
    int values = Math.min(BLOCK, count - block * BLOCK) - 1;
    ByteBuffer words =
        data.slice(offset, BitPacking.wordCount(values, width) * 8).order(ByteOrder.LITTLE_ENDIAN);
    return new PackedLongs(words, values, width);
  }

  /** The encoded size in bytes, without the leading varints. */
  public long sizeInBytes() {
    return heads.capacity() + (long) data.capacity();
  }
}
