package io.shelfmark.parquet.batch;

import static java.util.Objects.requireNonNull;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.parquet.format.Type;

/**
 * Values of one physical type held in one primitive array: {@code boolean[]} (BOOLEAN), {@code
 * int[]} (INT32), {@code long[]} (INT64), {@code float[]} (FLOAT), {@code double[]} (DOUBLE), or
 * for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 one {@code byte[]} with {@code int[]} offsets
 * (value {@code i} is {@code binaryData()[binaryOffsets()[i] .. binaryOffsets()[i + 1])}; INT96
 * values are their 12 raw bytes, see {@link Int96}).
 *
 * <p>Used both for a batch's values and for a column chunk's dictionary. The arrays are exposed
 * without copying for speed and may be longer than {@link #size()}: callers must not modify them.
 * Thread safe once built.
 */
public final class PrimitiveValues {
  private final Type type;
  private final int size;
  private final Object array; // boolean[], int[], long[], float[], double[] or byte[]
  private final int[] binaryOffsets; // size + 1 entries for binary types, otherwise null

  private PrimitiveValues(Type type, int size, Object array, int[] binaryOffsets) {
    this.type = requireNonNull(type, "type is null");
    this.size = size;
    this.array = requireNonNull(array, "array is null");
    this.binaryOffsets = binaryOffsets;
  }

  public static PrimitiveValues ofBooleans(boolean[] values, int size) {
    checkSize(values.length, size);
    return new PrimitiveValues(Type.BOOLEAN, size, values, null);
  }

  public static PrimitiveValues ofInts(int[] values, int size) {
    checkSize(values.length, size);
    return new PrimitiveValues(Type.INT32, size, values, null);
  }

  public static PrimitiveValues ofLongs(long[] values, int size) {
    checkSize(values.length, size);
    return new PrimitiveValues(Type.INT64, size, values, null);
  }

  public static PrimitiveValues ofFloats(float[] values, int size) {
    checkSize(values.length, size);
    return new PrimitiveValues(Type.FLOAT, size, values, null);
  }

  public static PrimitiveValues ofDoubles(double[] values, int size) {
    checkSize(values.length, size);
    return new PrimitiveValues(Type.DOUBLE, size, values, null);
  }

  /**
   * Binary values of {@code type} (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96): {@code offsets}
   * holds at least {@code size + 1} ascending entries into {@code data}.
   */
  public static PrimitiveValues ofBinary(Type type, byte[] data, int[] offsets, int size) {
    if (type != Type.BYTE_ARRAY && type != Type.FIXED_LEN_BYTE_ARRAY && type != Type.INT96) {
      throw new IllegalArgumentException("Cannot hold " + type + " values as binary");
    }
    checkSize(offsets.length - 1, size);
    if (offsets[size] > data.length) {
      throw new IllegalArgumentException(
          "Cannot hold %d binary values: last offset %d is past %d bytes"
              .formatted(size, offsets[size], data.length));
    }
    return new PrimitiveValues(type, size, data, offsets);
  }

  private static void checkSize(int capacity, int size) {
    if (size < 0 || size > capacity) {
      throw new IllegalArgumentException(
          "Cannot hold %d values in an array of %d".formatted(size, capacity));
    }
  }

  /** The physical type. */
  public Type type() {
    return type;
  }

  /** The number of values. */
  public int size() {
    return size;
  }

  /** Whether values are held as bytes and offsets (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96). */
  public boolean isBinary() {
    return binaryOffsets != null;
  }

  public boolean[] booleans() {
    return (boolean[]) as(Type.BOOLEAN);
  }

  public int[] ints() {
    return (int[]) as(Type.INT32);
  }

  public long[] longs() {
    return (long[]) as(Type.INT64);
  }

  public float[] floats() {
    return (float[]) as(Type.FLOAT);
  }

  public double[] doubles() {
    return (double[]) as(Type.DOUBLE);
  }

  /** The concatenated bytes of binary values. */
  public byte[] binaryData() {
    requireBinary();
    return (byte[]) array;
  }

  /** Offsets into {@link #binaryData()}: {@code size() + 1} meaningful entries. */
  public int[] binaryOffsets() {
    requireBinary();
    return binaryOffsets;
  }

  /** Value {@code index} of a binary type as a new array (for tests and slow paths). */
  public byte[] binary(int index) {
    requireBinary();
    checkIndex(index);
    return Arrays.copyOfRange((byte[]) array, binaryOffsets[index], binaryOffsets[index + 1]);
  }

  /** Value {@code index} of a binary type decoded as UTF-8 (for tests and slow paths). */
  public String string(int index) {
    requireBinary();
    checkIndex(index);
    int start = binaryOffsets[index];
    return new String(
        (byte[]) array, start, binaryOffsets[index + 1] - start, StandardCharsets.UTF_8);
  }

  private Object as(Type wanted) {
    if (type != wanted) {
      throw new IllegalStateException(
          "Cannot read %s values as %s: use the accessor of the physical type"
              .formatted(type, wanted));
    }
    return array;
  }

  private void requireBinary() {
    if (binaryOffsets == null) {
      throw new IllegalStateException(
          "Cannot read %s values as binary: use the accessor of the physical type".formatted(type));
    }
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("Cannot read value %d of %d".formatted(index, size));
    }
  }

  /** About the heap these values take: the arrays' bytes (what a cache bounded by bytes weighs). */
  public long heapBytes() {
    long bytes =
        switch (array) {
          case boolean[] b -> b.length;
          case int[] i -> 4L * i.length;
          case long[] l -> 8L * l.length;
          case float[] f -> 4L * f.length;
          case double[] d -> 8L * d.length;
          case byte[] b -> b.length;
          default -> 0;
        };
    return bytes + (binaryOffsets == null ? 0 : 4L * binaryOffsets.length);
  }

  @Override
  public String toString() {
    return "PrimitiveValues[" + type + " x " + size + "]";
  }
}
