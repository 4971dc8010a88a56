package io.shelfmark.server.column;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.server.vector.Gather;
import io.shelfmark.server.vector.Vector;
import io.shelfmark.sql.type.SqlType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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
}
