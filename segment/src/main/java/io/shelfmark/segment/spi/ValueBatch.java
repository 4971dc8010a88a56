package io.shelfmark.segment.spi;

import static java.util.Objects.requireNonNull;

/**
 * Consecutive docs' values of one column, handed to {@link IndexCreator#add} in doc-id order. For a
 * column with a dictionary the batch holds dictionary ids (-1 for null docs); otherwise it holds
 * the values in a primitive array by type: {@code longs}, {@code doubles}, or UTF-8 {@code
 * binaryData} with {@code binaryOffsets} ({@code count + 1} offsets, value {@code i} spanning
 * {@code binaryOffsets[i]..binaryOffsets[i + 1]}). Null docs hold 0, 0.0 or an empty value.
 *
 * <p>Arrays are shared, not copied, and may be longer than {@code count}: a creator must copy what
 * it keeps and never modify them. A batch is valid only during the {@code add} call.
 */
public final class ValueBatch {
  private final ValueType type;
  private final int count;
  private final boolean[] nulls;
  private final int[] dictionaryIds;
  private final long[] longs;
  private final double[] doubles;
  private final byte[] binaryData;
  private final int[] binaryOffsets;

  private ValueBatch(
      ValueType type,
      int count,
      boolean[] nulls,
      int[] dictionaryIds,
      long[] longs,
      double[] doubles,
      byte[] binaryData,
      int[] binaryOffsets) {
    this.type = requireNonNull(type, "type is null");
    if (count < 0) {
      throw new IllegalArgumentException("Cannot make a batch of " + count + " values");
    }
    if (nulls != null && nulls.length < count) {
      throw new IllegalArgumentException(
          "Cannot make a batch of %d values with %d null flags".formatted(count, nulls.length));
    }
    this.count = count;
    this.nulls = nulls;
    this.dictionaryIds = dictionaryIds;
    this.longs = longs;
    this.doubles = doubles;
    this.binaryData = binaryData;
    this.binaryOffsets = binaryOffsets;
  }

  /** Dictionary ids of a dictionary column; -1 marks a null doc. */
  public static ValueBatch ofDictionaryIds(ValueType type, int[] ids, int count) {
    checkLength("dictionary ids", ids.length, count);
    return new ValueBatch(type, count, null, ids, null, null, null, null);
  }

  /** LONG values; {@code nulls} may be null when no doc is null. */
  public static ValueBatch ofLongs(long[] values, boolean[] nulls, int count) {
    checkLength("longs", values.length, count);
    return new ValueBatch(ValueType.LONG, count, nulls, null, values, null, null, null);
  }

  /** DOUBLE values; {@code nulls} may be null when no doc is null. */
  public static ValueBatch ofDoubles(double[] values, boolean[] nulls, int count) {
    checkLength("doubles", values.length, count);
    return new ValueBatch(ValueType.DOUBLE, count, nulls, null, null, values, null, null);
  }

  /** STRING values as UTF-8 bytes and offsets; {@code nulls} may be null when no doc is null. */
  public static ValueBatch ofBinary(byte[] data, int[] offsets, boolean[] nulls, int count) {
    requireNonNull(data, "data is null");
    checkLength("binary offsets", offsets.length, count + 1);
    return new ValueBatch(ValueType.STRING, count, nulls, null, null, null, data, offsets);
  }

  private static void checkLength(String what, int length, int count) {
    if (length < count) {
      throw new IllegalArgumentException(
          "Cannot make a batch of %d values from %d %s".formatted(count, length, what));
    }
  }

  public ValueType type() {
    return type;
  }

  public int count() {
    return count;
  }

  public boolean hasDictionaryIds() {
    return dictionaryIds != null;
  }

  /** Whether doc {@code index} of the batch is null. */
  public boolean isNull(int index) {
    return dictionaryIds != null ? dictionaryIds[index] < 0 : nulls != null && nulls[index];
  }

  public int[] dictionaryIds() {
    return requireArray(dictionaryIds, "dictionary ids");
  }

  public long[] longs() {
    return requireArray(longs, "longs");
  }

  public double[] doubles() {
    return requireArray(doubles, "doubles");
  }

  public byte[] binaryData() {
    return requireArray(binaryData, "binary data");
  }

  public int[] binaryOffsets() {
    return requireArray(binaryOffsets, "binary offsets");
  }

  private <T> T requireArray(T array, String what) {
    if (array == null) {
      throw new IllegalStateException("Cannot read " + what + " of a batch of " + describe());
    }
    return array;
  }

  private String describe() {
    return dictionaryIds != null ? type + " dictionary ids" : type + " values";
  }

  @Override
  public String toString() {
    return "ValueBatch[" + count + " " + describe() + "]";
  }
}
