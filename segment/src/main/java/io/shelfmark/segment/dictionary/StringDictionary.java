package io.shelfmark.segment.dictionary;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.Dictionary;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.ObjIntConsumer;

/**
 * A STRING dictionary, front-coded in blocks of {@value #BLOCK} values: the first value of each
 * block whole, each next one as the length of the prefix it shares with the previous value plus its
 * remaining bytes. Sorted neighbours share long prefixes (metric names, host names), so this is
 * much smaller than plain UTF-8, and a lookup decodes one block after a binary search over block
 * heads. Immutable and thread safe.
 *
 * <pre>
 * size varint | blocks varint | dataBytes varint | block offsets u32 × blocks | data
 * block: length varint, bytes | then per value: shared varint, suffixLength varint, suffix bytes
 * </pre>
 */
final class StringDictionary implements Dictionary {
  static final int BLOCK = 16;

  private final int size;
  private final int blocks;
  private final ByteBuffer offsets;
  private final ByteBuffer data;

  private StringDictionary(int size, int blocks, ByteBuffer offsets, ByteBuffer data) {
    this.size = size;
    this.blocks = blocks;
    this.offsets = offsets;
    this.data = data;
  }

  /** Writes the values {@code order[0..]}, each spanning {@code offsets[id]..offsets[id+1]}. */
  static void write(PartWriter out, byte[] arena, int[] offsets, int[] order) {
    requireNonNull(order, "order is null");
    int size = order.length;
    int blocks = (size + BLOCK - 1) / BLOCK;
    PartWriter data = new PartWriter(64 + size * 8);
    int[] blockOffsets = new int[blocks];
    int previous = -1;
    for (int i = 0; i < size; i++) {
      int id = order[i];
      int start = offsets[id];
      int length = offsets[id + 1] - start;
      if (i % BLOCK == 0) {
        blockOffsets[i / BLOCK] = data.size();
        data.putVarInt(length).putBytes(arena, start, length);
      } else {
        int previousStart = offsets[previous];
        int previousLength = offsets[previous + 1] - previousStart;
        int shared =
            Arrays.mismatch(
                arena, previousStart, previousStart + previousLength, arena, start, start + length);
        // Distinct values: a mismatch always exists; -1 would mean equal values.
        data.putVarInt(shared)
            .putVarInt(length - shared)
            .putBytes(arena, start + shared, length - shared);
      }
      previous = id;
    }
    out.putVarInt(size).putVarInt(blocks).putVarInt(data.size());
    for (int offset : blockOffsets) {
      out.putInt(offset);
    }
    out.putBytes(data.toByteArray());
  }

  static StringDictionary read(PartReader in) throws CorruptSegmentException {
    return read(in, true);
  }

  /**
   * Opens the part; {@code validate} false skips decoding every block, only for a part this process
   * has just written from sorted distinct values.
   */
  static StringDictionary read(PartReader in, boolean validate) throws CorruptSegmentException {
    int size = in.getVarInt();
    int blocks = in.getVarInt();
    int dataBytes = in.getVarInt();
    if (blocks != (size + BLOCK - 1) / BLOCK || (long) blocks * 4 > in.remaining()) {
      throw in.corrupt("%d strings cannot have %d blocks here".formatted(size, blocks));
    }
    ByteBuffer offsets = in.slice(blocks * 4);
    int dataStart = in.position();
    ByteBuffer data = in.slice(dataBytes);
    StringDictionary dictionary = new StringDictionary(size, blocks, offsets, data);
    if (validate) {
      dictionary.validate(in, dataStart);
    }
    return dictionary;
  }

  /** Decodes every block once, so lookups never meet malformed bytes. */
  private void validate(PartReader in, int dataStart) throws CorruptSegmentException {
    byte[] previous = null;
    for (int block = 0; block < blocks; block++) {
      int offset = offsets.getInt(block * 4);
      if (offset < 0 || offset >= data.capacity()) {
        throw in.corrupt(
            "block %d starts at %d, outside %d data bytes"
                .formatted(block, offset, data.capacity()));
      }
      Cursor cursor = new Cursor(offset);
      int values = Math.min(BLOCK, size - block * BLOCK);
      for (int i = 0; i < values; i++) {
        byte[] value;
        try {
          value = cursor.next(i == 0);
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
          in.position(dataStart);
          throw in.corrupt(
              "block %d value %d is malformed: %s".formatted(block, i, e.getMessage()), e);
        }
        if (previous != null && Arrays.compareUnsigned(previous, value) >= 0) {
          in.position(dataStart);
          throw in.corrupt(
              "value %d is not above the value before it".formatted(block * BLOCK + i));
        }
        previous = value;
      }
    }
  }

  @Override
  public ValueType type() {
    return ValueType.STRING;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public int indexOf(Value value) {
    if (!(value instanceof Value.StringValue string)) {
      throw new IllegalArgumentException(
          "Cannot look up %s value %s in a STRING dictionary (cast the literal)"
              .formatted(value.type(), value));
    }
    byte[] target = string.utf8();
    // The last block whose first value is at most the target.
    int low = 0;
    int high = blocks - 1;
    int block = -1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      if (compareFirst(middle, target) <= 0) {
        block = middle;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    if (block < 0) {
      return -1;
    }
    Cursor cursor = new Cursor(offsets.getInt(block * 4));
    int values = Math.min(BLOCK, size - block * BLOCK);
    for (int i = 0; i < values; i++) {
      int compare = Arrays.compareUnsigned(cursor.next(i == 0), target);
      if (compare == 0) {
        return block * BLOCK + i;
      }
      if (compare > 0) {
        return -(block * BLOCK + i) - 1;
      }
    }
    return -(block * BLOCK + values) - 1;
  }

  private int compareFirst(int block, byte[] target) {
    Cursor cursor = new Cursor(offsets.getInt(block * 4));
    int length = cursor.varint();
    int start = cursor.position;
    int common = Math.min(length, target.length);
    for (int i = 0; i < common; i++) {
      int compare = Byte.compareUnsigned(data.get(start + i), target[i]);
      if (compare != 0) {
        return compare;
      }
    }
    return Integer.compare(length, target.length);
  }

  @Override
  public Value value(int id) {
    return Value.of(new String(bytes(id), StandardCharsets.UTF_8));
  }

  @Override
  public long longValue(int id) {
    throw new IllegalStateException("Cannot read a LONG value from a STRING dictionary");
  }

  @Override
  public double doubleValue(int id) {
    throw new IllegalStateException("Cannot read a DOUBLE value from a STRING dictionary");
  }

  @Override
  public byte[] bytes(int id) {
    if (id < 0 || id >= size) {
      throw new IndexOutOfBoundsException("Cannot read value %d of %d".formatted(id, size));
    }
    int block = id / BLOCK;
    Cursor cursor = new Cursor(offsets.getInt(block * 4));
    byte[] value = null;
    for (int i = 0; i <= id - block * BLOCK; i++) {
      value = cursor.next(i == 0);
    }
    return value;
  }

  @Override
  public void forEachBytes(ObjIntConsumer<byte[]> action) {
    // One cursor per block, each value decoded once: no walk from the block's start per id.
    for (int block = 0; block < blocks; block++) {
      Cursor cursor = new Cursor(offsets.getInt(block * 4));
      int values = Math.min(BLOCK, size - block * BLOCK);
      for (int i = 0; i < values; i++) {
        action.accept(cursor.next(i == 0), block * BLOCK + i);
      }
    }
  }

  @Override
  public long sizeInBytes() {
    return offsets.capacity() + (long) data.capacity();
  }

  @Override
  public String toString() {
    return "StringDictionary[" + size + " values]";
  }

  /** Walks one block's values. */
  private final class Cursor {
    private int position;
    private byte[] current = new byte[0];

    Cursor(int position) {
      this.position = position;
    }

    int varint() {
      int result = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = data.get(position++) & 0xFF;
        result |= (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          if (result < 0) {
            throw new IllegalStateException("negative length " + result);
          }
          return result;
        }
      }
      throw new IllegalStateException("varint longer than 5 bytes");
    }

    byte[] next(boolean first) {
      int shared = first ? 0 : varint();
      int length = varint();
      if (shared > current.length) {
        throw new IllegalStateException(
            "shares %d bytes with a value of %d".formatted(shared, current.length));
      }
      byte[] value = Arrays.copyOf(current, shared + length);
      data.get(position, value, shared, length);
      position += length;
      current = value;
      return value;
    }
  }
}
