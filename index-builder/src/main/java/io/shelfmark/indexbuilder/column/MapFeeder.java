package io.shelfmark.indexbuilder.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.segment.build.MapColumnWriter;
import java.util.Arrays;

/**
 * Moves a MAP&lt;STRING, STRING&gt; column's decoded row groups (its key and value leaf batches,
 * side by side) into a segment map column, which extracts the selected keys. Not thread safe.
 */
final class MapFeeder {
  private final MapColumnWriter writer;
  private final int keyIndex;
  private final int valueIndex;
  private final ParquetLocation where;

  MapFeeder(MapColumnWriter writer, int keyIndex, int valueIndex, ParquetLocation where) {
    this.writer = requireNonNull(writer, "writer is null");
    this.keyIndex = keyIndex;
    this.valueIndex = valueIndex;
    this.where = requireNonNull(where, "where is null");
  }

  int keyIndex() {
    return keyIndex;
  }

  int valueIndex() {
    return valueIndex;
  }

  void feed(ColumnBatch keys, ColumnBatch values, int rowGroup) throws CorruptParquetException {
    int rows = keys.rowCount();
    int[] entryOffsets = keys.offsets(1);
    if (values.rowCount() != rows
        || values.valueCount() != keys.valueCount()
        || entryOffsets[rows] != keys.valueCount()
        || !Arrays.equals(entryOffsets, 0, rows + 1, values.offsets(1), 0, rows + 1)) {
      throw new CorruptParquetException(
          where.withRowGroup(rowGroup),
          "the map's keys (%d rows, %d entries) and values (%d rows, %d entries) do not pair up"
              .formatted(rows, keys.valueCount(), values.rowCount(), values.valueCount()));
    }
    if (keys.hasNulls()) {
      throw new CorruptParquetException(
          where.withRowGroup(rowGroup), "a map entry has a null key (map keys are required)");
    }
    PrimitiveValues valueValues = values.values();
    if (keys.isDictionaryEncoded()) {
      // Keys are few and dictionary-encoded: look each up once, not once per entry.
      PrimitiveValues dictionary = keys.dictionary();
      writer.addMapsWithKeyIds(
          rows,
          entryOffsets,
          keys.listNulls(1),
          dictionary.binaryData(),
          dictionary.binaryOffsets(),
          dictionary.size(),
          keys.dictionaryIds(),
          valueValues.binaryData(),
          valueValues.binaryOffsets(),
          values.nulls());
      return;
    }
    PrimitiveValues keyValues = keys.values();
    writer.addMaps(
        rows,
        entryOffsets,
        keys.listNulls(1),
        keyValues.binaryData(),
        keyValues.binaryOffsets(),
        valueValues.binaryData(),
        valueValues.binaryOffsets(),
        values.nulls());
  }
}
