package io.shelfmark.indexbuilder.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.Float16;
import io.shelfmark.parquet.batch.Int96;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.segment.build.ColumnWriter;

/**
 * Moves one flat Parquet column's decoded row groups into a segment column, converting physical
 * values (see {@link Conversion}). A dictionary-encoded batch goes in as dictionary ids, so the
 * segment hashes each distinct value once per row group instead of once per row. Widening reuses
 * one scratch array per column: no allocation per row. Not thread safe.
 */
final class ColumnFeeder {
  private final ColumnWriter writer;
  private final Conversion conversion;
  private final int batchIndex;
  private final ParquetLocation where;
  private long[] longs = new long[0];
  private double[] doubles = new double[0];

  ColumnFeeder(ColumnWriter writer, Conversion conversion, int batchIndex, ParquetLocation where) {
    this.writer = requireNonNull(writer, "writer is null");
    this.conversion = requireNonNull(conversion, "conversion is null");
    this.batchIndex = batchIndex;
    this.where = requireNonNull(where, "where is null");
  }

  int batchIndex() {
    return batchIndex;
  }

  void feed(ColumnBatch batch, int rowGroup) throws CorruptParquetException {
    int count = batch.rowCount();
    if (batch.valueCount() != count) {
      throw new CorruptParquetException(
          where.withRowGroup(rowGroup),
          "a flat column decoded %d values for %d rows".formatted(batch.valueCount(), count));
    }
    if (batch.isDictionaryEncoded()) {
      feedIds(batch.dictionary(), batch.dictionaryIds(), count);
    } else {
      feedValues(batch.values(), batch.nulls(), count);
    }
  }

  private void feedIds(PrimitiveValues dictionary, int[] ids, int count) {
    int size = dictionary.size();
    switch (conversion) {
      case INT64 -> writer.addLongIds(dictionary.longs(), size, ids, count);
      case DOUBLE -> writer.addDoubleIds(dictionary.doubles(), size, ids, count);
      case BINARY ->
          writer.addBinaryIds(
              dictionary.binaryData(), dictionary.binaryOffsets(), size, ids, count);
      case BOOLEAN, INT32, UINT32, INT96 -> {
        // Widening the dictionary costs its size, once per row group, not once per row.
        writer.addLongIds(widenLongs(dictionary, size, new long[size]), size, ids, count);
      }
      case FLOAT, FLOAT16 ->
          writer.addDoubleIds(widenDoubles(dictionary, size, new double[size]), size, ids, count);
    }
  }

  private void feedValues(PrimitiveValues values, boolean[] nulls, int count) {
    switch (conversion) {
      case INT64 -> writer.addLongs(values.longs(), nulls, count);
      case DOUBLE -> writer.addDoubles(values.doubles(), nulls, count);
      case BINARY -> writer.addBinary(values.binaryData(), values.binaryOffsets(), nulls, count);
      case BOOLEAN, INT32, UINT32, INT96 -> {
        if (longs.length < count) {
          longs = new long[count];
        }
        writer.addLongs(widenLongs(values, count, longs), nulls, count);
      }
      case FLOAT, FLOAT16 -> {
        if (doubles.length < count) {
          doubles = new double[count];
        }
        writer.addDoubles(widenDoubles(values, count, doubles), nulls, count);
      }
    }
  }

  private long[] widenLongs(PrimitiveValues values, int count, long[] target) {
    switch (conversion) {
      case BOOLEAN -> {
        boolean[] source = values.booleans();
        for (int i = 0; i < count; i++) {
          target[i] = source[i] ? 1 : 0;
        }
      }
      case INT32 -> {
        int[] source = values.ints();
        for (int i = 0; i < count; i++) {
          target[i] = source[i];
        }
      }
      case UINT32 -> {
        int[] source = values.ints();
        for (int i = 0; i < count; i++) {
          target[i] = Integer.toUnsignedLong(source[i]);
        }
      }
      case INT96 -> {
        byte[] data = values.binaryData();
        int[] offsets = values.binaryOffsets();
        for (int i = 0; i < count; i++) {
          // A null entry holds an empty value: leave 0 rather than read past it.
          target[i] = offsets[i + 1] - offsets[i] == 12 ? Int96.toEpochMicros(data, offsets[i]) : 0;
        }
      }
      default -> throw new IllegalStateException("Cannot widen " + conversion + " to longs");
    }
    return target;
  }

  private double[] widenDoubles(PrimitiveValues values, int count, double[] target) {
    switch (conversion) {
      case FLOAT -> {
        float[] source = values.floats();
        for (int i = 0; i < count; i++) {
          target[i] = source[i];
        }
      }
      case FLOAT16 -> {
        byte[] data = values.binaryData();
        int[] offsets = values.binaryOffsets();
        for (int i = 0; i < count; i++) {
          target[i] = offsets[i + 1] - offsets[i] == 2 ? Float16.toFloat(data, offsets[i]) : 0;
        }
      }
      default -> throw new IllegalStateException("Cannot widen " + conversion + " to doubles");
    }
    return target;
  }
}
