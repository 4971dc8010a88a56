package io.shelfmark.indexbuilder.testing;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.Float16;
import io.shelfmark.parquet.batch.Int96;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.ReaderOptions;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.parquet.schema.ColumnSchema;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The brute-force side of round-trip tests: every row's value of some columns of one Parquet file,
 * decoded row by row from materialised values (never from dictionary ids, unlike the builder), as
 * segment {@link Value}s, null for null. Map columns give one array per key: the value of the key's
 * last entry in the row, null when the key is absent or the map is null.
 */
public final class DecodedValues {
  private DecodedValues() {}

  /**
   * Reads flat columns (by leaf dotted path, named in the result as given) and map columns (by
   * field path; each key becomes {@code map['key']}).
   */
  public static Map<String, Value[]> read(
      ObjectStore store,
      Location file,
      long fileSize,
      List<String> flatColumns,
      Map<String, List<String>> mapKeys)
      throws IOException {
    List<String> leaves = new ArrayList<>(flatColumns);
    for (String map : mapKeys.keySet()) {
      leaves.add(map);
    }
    Map<String, List<Value>> values = new LinkedHashMap<>();
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    try (ParquetRead read =
        new ParquetFileReader(store, executor, ReaderOptions.defaults())
            .start(ReadRequest.of(file, fileSize, leaves, RowSelection.all()))) {
      while (read.hasNext()) {
        RowGroupBatch batch = read.next();
        for (String column : flatColumns) {
          List<Value> target = values.computeIfAbsent(column, c -> new ArrayList<>());
          ColumnBatch columnBatch = batch.column(column);
          PrimitiveValues primitive = columnBatch.values();
          for (int row = 0; row < columnBatch.rowCount(); row++) {
            target.add(
                columnBatch.isNull(row) ? null : value(columnBatch.column(), primitive, row));
          }
        }
        for (Map.Entry<String, List<String>> map : mapKeys.entrySet()) {
          addMapRows(batch, map.getKey(), map.getValue(), values);
        }
      }
    } finally {
      executor.shutdownNow();
    }
    Map<String, Value[]> result = new LinkedHashMap<>();
    values.forEach((column, list) -> result.put(column, list.toArray(new Value[0])));
    return result;
  }

  private static void addMapRows(
      RowGroupBatch batch, String map, List<String> keys, Map<String, List<Value>> values) {
    ColumnBatch keyBatch = null;
    ColumnBatch valueBatch = null;
    for (ColumnBatch column : batch.columns()) {
      if (column.column().fieldPath().equals(map)) {
        if (keyBatch == null) {
          keyBatch = column;
        } else {
          valueBatch = column;
        }
      }
    }
    int[] offsets = keyBatch.offsets(1);
    PrimitiveValues keyValues = keyBatch.values();
    PrimitiveValues valueValues = valueBatch.values();
    for (int row = 0; row < keyBatch.rowCount(); row++) {
      Map<String, Value> rowValues = new HashMap<>();
      for (int entry = offsets[row]; entry < offsets[row + 1]; entry++) {
        Value value = valueBatch.isNull(entry) ? null : Value.of(valueValues.string(entry));
        rowValues.put(keyValues.string(entry), value); // the last entry of a repeated key wins
      }
      for (String key : keys) {
        values
            .computeIfAbsent(ColumnDescriptor.mapKeyName(map, key), k -> new ArrayList<>())
            .add(rowValues.get(key));
      }
    }
  }

  /** Whether every non-null value of a flat binary column is valid UTF-8 text. */
  public static boolean isUtf8Text(ObjectStore store, Location file, long fileSize, String column)
      throws IOException {
    ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    try (ParquetRead read =
        new ParquetFileReader(store, executor, ReaderOptions.defaults())
            .start(ReadRequest.of(file, fileSize, List.of(column), RowSelection.all()))) {
      while (read.hasNext()) {
        ColumnBatch batch = read.next().column(column);
        PrimitiveValues values = batch.values();
        for (int row = 0; row < batch.rowCount(); row++) {
          if (!batch.isNull(row) && !isUtf8(values.binary(row))) {
            return false;
          }
        }
      }
    } finally {
      executor.shutdownNow();
    }
    return true;
  }

  private static boolean isUtf8(byte[] bytes) {
    try {
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      return true;
    } catch (CharacterCodingException e) {
      return false;
    }
  }

  /** One non-null value in the segment's value domain. */
  static Value value(ColumnSchema column, PrimitiveValues values, int row) {
    boolean unsigned =
        column
            .logicalType()
            .map(t -> t.isSetINTEGER() && !t.getINTEGER().isIsSigned())
            .orElse(false);
    return switch (column.physicalType()) {
      case BOOLEAN -> Value.of(values.booleans()[row] ? 1L : 0L);
      case INT32 ->
          Value.of(unsigned ? Integer.toUnsignedLong(values.ints()[row]) : values.ints()[row]);
      case INT64 -> Value.of(values.longs()[row]);
      case INT96 -> Value.of(Int96.toEpochMicros(values.binaryData(), values.binaryOffsets()[row]));
      case FLOAT -> Value.of((double) values.floats()[row]);
      case DOUBLE -> Value.of(values.doubles()[row]);
      case FIXED_LEN_BYTE_ARRAY ->
          column.logicalType().map(t -> t.isSetFLOAT16()).orElse(false)
              ? Value.of((double) Float16.toFloat(values.binaryData(), values.binaryOffsets()[row]))
              : Value.of(new String(values.binary(row), StandardCharsets.UTF_8));
      case BYTE_ARRAY -> Value.of(values.string(row));
    };
  }
}
