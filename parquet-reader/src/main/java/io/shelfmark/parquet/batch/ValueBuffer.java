package io.shelfmark.parquet.batch;

import java.util.Arrays;
import org.apache.parquet.format.Type;

/**
 * A growable primitive array of one physical type, appended to by the batch builder. Not thread
 * safe. Grows by half its size, so appending n values costs amortised O(n); given a size hint
 * ({@link #expect}), the first growth goes straight to it, so a batch whose size is known from the
 * column chunk's metadata is copied once rather than once per growth step.
 */
final class ValueBuffer {
  /** Arrays stop short of the VM's limit. */
  static final int MAX_ENTRIES = Integer.MAX_VALUE - 16;

  private final Type type;
  private int size;
  private boolean[] booleans;
  private int[] ints;
  private long[] longs;
  private float[] floats;
  private double[] doubles;
  private byte[] data;
  private int dataSize;
  private int[] offsets;
  private int expectedEntries;
  private long expectedBytes;

  ValueBuffer(Type type) {
    this.type = type;
    switch (type) {
      case BOOLEAN -> booleans = new boolean[16];
      case INT32 -> ints = new int[16];
      case INT64 -> longs = new long[16];
      case FLOAT -> floats = new float[16];
      case DOUBLE -> doubles = new double[16];
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> {
        data = new byte[64];
        offsets = new int[17];
      }
    }
  }

  int size() {
    return size;
  }

  /**
   * Hints that the buffer will hold about {@code entries} values in all, with {@code bytes} bytes
   * of binary data: growth then jumps to those sizes. A hint only: more may be appended.
   */
  void expect(int entries, long bytes) {
    expectedEntries = Math.max(0, Math.min(entries, MAX_ENTRIES));
    expectedBytes = Math.max(0, Math.min(bytes, MAX_ENTRIES));
  }

  /** Appends {@code count} default values (0, false, empty binary): the slots of nulls. */
  void appendDefaults(int count) {
    ensure(count);
    if (count == 1 && offsets != null) {
      // One at a time is the common case (an unwanted or null entry among values).
      offsets[++size] = dataSize;
      return;
    }
    if (offsets != null) {
      Arrays.fill(offsets, size + 1, size + count + 1, dataSize);
    }
    // Primitive arrays are zero on allocation and slots are never reused, so nothing to clear.
    size += count;
  }

  void appendBooleans(boolean[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, booleans, size, count);
    size += count;
  }

  void appendInts(int[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, ints, size, count);
    size += count;
  }

  void appendLongs(long[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, longs, size, count);
    size += count;
  }

  void appendFloats(float[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, floats, size, count);
    size += count;
  }

  void appendDoubles(double[] source, int offset, int count) {
    ensure(count);
    System.arraycopy(source, offset, doubles, size, count);
    size += count;
  }

  void appendBinary(byte[] source, int offset, int length) {
    ensure(1);
    if (length > data.length - dataSize) {
      long wanted = (long) dataSize + length;
      if (wanted > MAX_ENTRIES) {
        throw new IllegalStateException(
            "Cannot hold more than %d bytes of binary values in one batch (read fewer rows at once)"
                .formatted(MAX_ENTRIES));
      }
      long grown = Math.max(Math.max(wanted, dataSize * 3L / 2), expectedBytes);
      data = Arrays.copyOf(data, (int) Math.min(MAX_ENTRIES, grown));
    }
    System.arraycopy(source, offset, data, dataSize, length);
    dataSize += length;
    size++;
    offsets[size] = dataSize;
  }

  /** Appends value {@code index} of {@code source}, which has this buffer's type. */
  void appendFrom(PrimitiveValues source, int index) {
    switch (type) {
      case BOOLEAN -> appendBooleans(source.booleans(), index, 1);
      case INT32 -> appendInts(source.ints(), index, 1);
      case INT64 -> appendLongs(source.longs(), index, 1);
      case FLOAT -> appendFloats(source.floats(), index, 1);
      case DOUBLE -> appendDoubles(source.doubles(), index, 1);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> {
        int start = source.binaryOffsets()[index];
        appendBinary(source.binaryData(), start, source.binaryOffsets()[index + 1] - start);
      }
    }
  }

  PrimitiveValues toValues() {
    return switch (type) {
      case BOOLEAN -> PrimitiveValues.ofBooleans(booleans, size);
      case INT32 -> PrimitiveValues.ofInts(ints, size);
      case INT64 -> PrimitiveValues.ofLongs(longs, size);
      case FLOAT -> PrimitiveValues.ofFloats(floats, size);
      case DOUBLE -> PrimitiveValues.ofDoubles(doubles, size);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 ->
          PrimitiveValues.ofBinary(type, data, offsets, size);
    };
  }

  private void ensure(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("Cannot append " + count + " values");
    }
    int capacity = capacity();
    if (count <= capacity - size) {
      return;
    }
    long wanted = (long) size + count;
    if (wanted > MAX_ENTRIES) {
      throw new IllegalStateException(
          "Cannot hold more than %d values in one batch (read fewer rows at once)"
              .formatted(MAX_ENTRIES));
    }
    int newCapacity =
        (int) Math.min(MAX_ENTRIES, Math.max(Math.max(wanted, capacity * 3L / 2), expectedEntries));
    switch (type) {
      case BOOLEAN -> booleans = Arrays.copyOf(booleans, newCapacity);
      case INT32 -> ints = Arrays.copyOf(ints, newCapacity);
      case INT64 -> longs = Arrays.copyOf(longs, newCapacity);
      case FLOAT -> floats = Arrays.copyOf(floats, newCapacity);
      case DOUBLE -> doubles = Arrays.copyOf(doubles, newCapacity);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 ->
          offsets = Arrays.copyOf(offsets, newCapacity + 1);
    }
  }

  private int capacity() {
    return switch (type) {
      case BOOLEAN -> booleans.length;
      case INT32 -> ints.length;
      case INT64 -> longs.length;
      case FLOAT -> floats.length;
      case DOUBLE -> doubles.length;
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> offsets.length - 1;
    };
  }
}
