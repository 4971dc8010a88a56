package io.shelfmark.server.column;

import io.shelfmark.exchange.vector.Gather;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one key of a MAP column from its decoded key and value batches: per row, the value of the
 * entry whose key equals the wanted key (NULL when the row's map is null or lacks the key; when a
 * key repeats, the last entry wins, as the segment's extracted map keys do).
 */
public final class MapVectors {
  private MapVectors() {}

  public static Vector extract(
      ColumnBatch keys, ColumnBatch values, String key, SqlType valueType, String file) {
    int rows = keys.rowCount();
    int[] offsets = keys.offsets(1);
    byte[] wanted = key.getBytes(StandardCharsets.UTF_8);
    int[] entries = new int[rows];
    Arrays.fill(entries, -1);
    if (keys.isDictionaryEncoded()) {
      int wantedId = findInDictionary(keys.dictionary(), wanted);
      if (wantedId >= 0) {
        int[] ids = keys.dictionaryIds();
        for (int row = 0; row < rows; row++) {
          for (int entry = offsets[row]; entry < offsets[row + 1]; entry++) {
            if (ids[entry] == wantedId) {
              entries[row] = entry;
            }
          }
        }
      }
    } else {
      PrimitiveValues keyValues = keys.values();
      byte[] data = keyValues.binaryData();
      int[] keyOffsets = keyValues.binaryOffsets();
      for (int row = 0; row < rows; row++) {
        for (int entry = offsets[row]; entry < offsets[row + 1]; entry++) {
          if (!keys.isNull(entry)
              && Arrays.equals(
                  data, keyOffsets[entry], keyOffsets[entry + 1], wanted, 0, wanted.length)) {
            entries[row] = entry;
          }
        }
      }
    }
    Vector all = ParquetVectors.convert(values, valueType, file);
    return Gather.gather(all, entries, rows);
  }

  private static int findInDictionary(PrimitiveValues dictionary, byte[] wanted) {
    byte[] data = dictionary.binaryData();
    int[] offsets = dictionary.binaryOffsets();
    for (int id = 0; id < dictionary.size(); id++) {
      if (Arrays.equals(data, offsets[id], offsets[id + 1], wanted, 0, wanted.length)) {
        return id;
      }
    }
    return -1;
  }

  /**
   * Reads a whole MAP column (a preview's {@code SELECT *}): per row a {@code Map<String, Object>}
   * of its entries in file order, values in their SQL type's representation; NULL for a null map.
   * When a key repeats, the last entry wins, as in {@link #extract}.
   */
  public static Vector whole(ColumnBatch keys, ColumnBatch values, MapType type, String file) {
    int rows = keys.rowCount();
    int[] offsets = keys.offsets(1);
    boolean[] nullMaps = keys.listNulls(1);
    Vector entries = ParquetVectors.convert(values, type.valueType(), file);
    Object[] maps = new Object[rows];
    boolean[] nulls = null;
    for (int row = 0; row < rows; row++) {
      if (nullMaps != null && nullMaps[row]) {
        nulls = nulls == null ? new boolean[rows] : nulls;
        nulls[row] = true;
        continue;
      }
      Map<String, Object> map = new LinkedHashMap<>();
      for (int entry = offsets[row]; entry < offsets[row + 1]; entry++) {
        if (!keys.isNull(entry)) {
          map.put(key(keys, entry), entries.boxed(entry));
        }
      }
      maps[row] = Collections.unmodifiableMap(map);
    }
    return Vector.ofObjects(type, rows, maps, nulls);
  }

  private static String key(ColumnBatch keys, int entry) {
    PrimitiveValues source;
    int index;
    if (keys.isDictionaryEncoded()) {
      source = keys.dictionary();
      index = keys.dictionaryIds()[entry];
    } else {
      source = keys.values();
      index = entry;
    }
    int[] offsets = source.binaryOffsets();
    return new String(
        source.binaryData(),
        offsets[index],
        offsets[index + 1] - offsets[index],
        StandardCharsets.UTF_8);
  }
}
