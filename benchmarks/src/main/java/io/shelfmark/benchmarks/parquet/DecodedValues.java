package io.shelfmark.benchmarks.parquet;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import java.util.Arrays;
import java.util.Optional;

/**
 * What the parquet-java baseline decodes a column chunk into: the same kind of primitive arrays a
 * Shelfmark {@link ColumnBatch} holds (null flags, {@code long[]}, {@code double[]}, bytes with
 * offsets, or dictionary ids), so both readers do comparable work and their results can be checked
 * against each other. Exactly one of the value arrays is set. Arrays may be longer than {@link
 * #count()}.
 */
public final class DecodedValues {
  private final int count;
  private final boolean[] nulls;
  private final long[] longs;
  private final double[] doubles;
  private final byte[] binaryData;
  private final int[] binaryOffsets;
  private final int[] dictionaryIds;

  private DecodedValues(
      int count,
      boolean[] nulls,
      long[] longs,
      double[] doubles,
      byte[] binaryData,
      int[] binaryOffsets,
      int[] dictionaryIds) {
    this.count = count;
    this.nulls = nulls;
    this.longs = longs;
    this.doubles = doubles;
    this.binaryData = binaryData;
    this.binaryOffsets = binaryOffsets;
    this.dictionaryIds = dictionaryIds;
  }

  static DecodedValues ofLongs(int count, boolean[] nulls, long[] values) {
    return new DecodedValues(count, nulls, values, null, null, null, null);
  }

  static DecodedValues ofDoubles(int count, boolean[] nulls, double[] values) {
    return new DecodedValues(count, nulls, null, values, null, null, null);
  }

  static DecodedValues ofBinary(int count, boolean[] nulls, byte[] data, int[] offsets) {
    return new DecodedValues(count, nulls, null, null, data, offsets, null);
  }

  static DecodedValues ofDictionaryIds(int count, boolean[] nulls, int[] ids) {
    return new DecodedValues(count, nulls, null, null, null, null, ids);
  }

  /** The number of values (rows: every benchmark column is flat). */
  public int count() {
    return count;
  }

  /** Whether dictionary ids were decoded instead of values. */
  public boolean isDictionaryIds() {
    return dictionaryIds != null;
  }

  private boolean isNull(int index) {
    return nulls != null && nulls[index];
  }

  /**
   * The first difference from {@code batch}, described, or empty when both hold the same null flags
   * and the same non-null values (doubles compared bit for bit; dictionary ids compared as ids when
   * this holds ids).
   */
  public Optional<String> differenceFrom(ColumnBatch batch) {
    if (batch.valueCount() != count || batch.rowCount() != count) {
      return Optional.of(
          "parquet-java decoded %d values, Shelfmark %d values in %d rows"
              .formatted(count, batch.valueCount(), batch.rowCount()));
    }
    if (dictionaryIds != null && !batch.isDictionaryEncoded()) {
      return Optional.of("parquet-java decoded dictionary ids, Shelfmark materialised values");
    }
    PrimitiveValues values = dictionaryIds != null ? null : batch.values();
    for (int i = 0; i < count; i++) {
      if (isNull(i) != batch.isNull(i)) {
        return Optional.of(
            "value %d: parquet-java null=%s, Shelfmark null=%s"
                .formatted(i, isNull(i), batch.isNull(i)));
      }
      if (!isNull(i) && !sameValue(i, batch, values)) {
        return Optional.of(
            "value %d: parquet-java %s, Shelfmark differs".formatted(i, describe(i)));
      }
    }
    return Optional.empty();
  }

  private boolean sameValue(int i, ColumnBatch batch, PrimitiveValues values) {
    if (dictionaryIds != null) {
      return dictionaryIds[i] == batch.dictionaryIds()[i];
    }
    if (longs != null) {
      return longs[i] == values.longs()[i];
    }
    if (doubles != null) {
      return Double.doubleToRawLongBits(doubles[i])
          == Double.doubleToRawLongBits(values.doubles()[i]);
    }
    int[] offsets = values.binaryOffsets();
    return Arrays.equals(
        binaryData,
        binaryOffsets[i],
        binaryOffsets[i + 1],
        values.binaryData(),
        offsets[i],
        offsets[i + 1]);
  }

  private String describe(int i) {
    if (dictionaryIds != null) {
      return "id " + dictionaryIds[i];
    }
    if (longs != null) {
      return Long.toString(longs[i]);
    }
    if (doubles != null) {
      return Double.toString(doubles[i]);
    }
    return (binaryOffsets[i + 1] - binaryOffsets[i]) + " bytes";
  }

  @Override
  public String toString() {
    String kind =
        dictionaryIds != null
            ? "dictionary ids"
            : longs != null ? "longs" : doubles != null ? "doubles" : "binary";
    return "DecodedValues[%d %s%s]".formatted(count, kind, nulls != null ? ", nulls" : "");
  }
}
