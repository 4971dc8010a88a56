package io.shelfmark.indexbuilder.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.CorruptParquetException;
import io.shelfmark.parquet.ParquetLocation;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.segment.build.MapColumnWriter;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Moves a MAP&lt;STRING, STRING&gt; column's decoded row groups (its key and value leaf batches,
 * side by side) into a segment map column, which extracts the selected keys. With listed keys it
 * also tells the reader which values to decode ({@link #wantedValues}): only those under a listed
 * key, so the values of the other keys (most of the map's bytes) are never copied. Not thread safe.
 */
final class MapFeeder {
  private final MapColumnWriter writer;
  private final int keyIndex;
  private final int valueIndex;
  private final ParquetLocation where;
  private final byte[][] listedKeys; // null: automatic selection needs every key's values
  private boolean[] wanted = new boolean[0];

  MapFeeder(MapColumnWriter writer, int keyIndex, int valueIndex, ParquetLocation where) {
    this.writer = requireNonNull(writer, "writer is null");
    this.listedKeys =
        writer.selection() instanceof MapKeySelection.Listed listed
            ? listed.keys().stream()
                .map(key -> key.getBytes(StandardCharsets.UTF_8))
                .toArray(byte[][]::new)
            : null;
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

  /**
   * Which value entries of a row group to decode, from its decoded keys: those under a listed key,
   * or {@code null} (all) when keys are selected automatically. The array is reused per row group.
   */
  boolean[] wantedValues(ColumnBatch keys) {
    if (listedKeys == null) {
      return null;
    }
    int entries = keys.valueCount();
    if (wanted.length < entries) {
      wanted = new boolean[entries];
    }
    if (keys.isDictionaryEncoded()) {
      // Each distinct key is compared once, then entries look up their key id.
      PrimitiveValues dictionary = keys.dictionary();
      boolean[] listedIds = new boolean[dictionary.size()];
      for (int id = 0; id < listedIds.length; id++) {
        listedIds[id] = isListed(dictionary.binaryData(), dictionary.binaryOffsets(), id);
      }
      int[] ids = keys.dictionaryIds();
      for (int e = 0; e < entries; e++) {
        wanted[e] = ids[e] >= 0 && listedIds[ids[e]];
      }
    } else {
      PrimitiveValues values = keys.values();
      for (int e = 0; e < entries; e++) {
        wanted[e] = isListed(values.binaryData(), values.binaryOffsets(), e);
      }
    }
    return wanted;
  }

  private boolean isListed(byte[] data, int[] offsets, int index) {
    for (byte[] key : listedKeys) {
      if (Arrays.equals(key, 0, key.length, data, offsets[index], offsets[index + 1])) {
        return true;
      }
    }
    return false;
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
    if (keys.isDictionaryEncoded()) {
      // Keys are few and dictionary-encoded: look each up once, not once per entry. Values that
      // are dictionary-encoded too are hashed once per distinct value, never materialised.
      PrimitiveValues dictionary = keys.dictionary();
      boolean valueIds = values.isDictionaryEncoded();
      PrimitiveValues valueStrings = valueIds ? values.dictionary() : values.values();
      writer.addMapsWithKeyIds(
          rows,
          entryOffsets,
          keys.listNulls(1),
          dictionary.binaryData(),
          dictionary.binaryOffsets(),
          dictionary.size(),
          keys.dictionaryIds(),
          valueStrings.binaryData(),
          valueStrings.binaryOffsets(),
          valueIds ? values.dictionaryIds() : null,
          values.nulls());
      return;
    }
    PrimitiveValues valueValues = values.values();
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
