package io.shelfmark.server.delete;

import static java.util.Objects.requireNonNull;

import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.metadata.FooterReader;
import io.shelfmark.parquet.metadata.ParquetFooter;
import io.shelfmark.parquet.plan.RowSelection;
import io.shelfmark.parquet.read.ParquetFileReader;
import io.shelfmark.parquet.read.ParquetRead;
import io.shelfmark.parquet.read.ReadRequest;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.storage.spi.Location;
import io.shelfmark.storage.spi.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.Type;
import org.roaringbitmap.RoaringBitmap;

/**
 * Applies Iceberg equality deletes by turning them into positions: the delete file's rows are read
 * as keys (the values of its equality fields, by Iceberg field id), then the data file's values of
 * the same fields, and every row whose values equal a key is deleted. NULL equals NULL, as in
 * Iceberg's own readers. Which delete files apply (data sequence number strictly below the
 * delete's, same partition or a global delete) is Iceberg's planning, already done.
 *
 * <p>Values compare by their Parquet physical representation, which both files share for one
 * Iceberg field: INT32 and INT64 as a long (so an int field promoted to long still matches),
 * BOOLEAN, and BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY as bytes (strings, binary, UUID, fixed decimals).
 * Refused with {@link UnsupportedDeletesException}: FLOAT and DOUBLE fields (Iceberg compares them
 * with Java's {@code equals}, where -0.0 differs from 0.0), INT96, nested fields, and data files
 * without Parquet field ids or without one of the fields (a column added later, which may have a
 * default value).
 *
 * <p>Cost: the data file's equality columns are read whole, once per data file and snapshot (at
 * sync), one small list per row. Thread safe: stateless apart from the injected reader.
 */
final class EqualityDeleteReader {
  private final ObjectStore store;
  private final ParquetFileReader reader;
  private final FooterReader footerReader = FooterReader.withDefaults();

  EqualityDeleteReader(ObjectStore store, ParquetFileReader reader) {
    this.store = requireNonNull(store, "store is null");
    this.reader = requireNonNull(reader, "reader is null");
  }

  /** The keys an equality-delete file deletes: its rows' values of {@code fieldIds}, in order. */
  Set<List<Object>> keys(String deleteFile, long fileSize, List<Integer> fieldIds, String dataFile)
      throws IOException {
    Set<List<Object>> keys = new HashSet<>();
    read(deleteFile, fileSize, fieldIds, deleteFile, dataFile, (row, key) -> keys.add(key));
    return keys;
  }

  /** The positions of the data file's rows whose values of {@code fieldIds} are one of the keys. */
  RoaringBitmap positions(
      String dataFile,
      long fileSize,
      List<Integer> fieldIds,
      Set<List<Object>> keys,
      String deleteFiles)
      throws IOException {
    RoaringBitmap positions = new RoaringBitmap();
    read(
        dataFile,
        fileSize,
        fieldIds,
        deleteFiles,
        dataFile,
        (row, key) -> {
          if (keys.contains(key)) {
            positions.add((int) row);
          }
        });
    return positions;
  }

  private interface RowConsumer {
    void accept(long row, List<Object> key);
  }

  private void read(
      String file,
      long fileSize,
      List<Integer> fieldIds,
      String deleteFile,
      String dataFile,
      RowConsumer consumer)
      throws IOException {
    Location location = Location.parse(file);
    ParquetFooter footer = footerReader.read(store, location, fileSize);
    Map<Integer, SchemaElement> fields = topLevelFields(footer.schema());
    if (fields.isEmpty()) {
      throw new UnsupportedDeletesException(
          deleteFile,
          dataFile,
          ("Cannot apply equality deletes %s to data file %s: %s records no Parquet field ids, so"
                  + " its columns cannot be matched to the delete's field ids %s")
              .formatted(deleteFile, dataFile, file, fieldIds));
    }
    List<String> columns = new ArrayList<>();
    for (int fieldId : fieldIds) {
      SchemaElement field = fields.get(fieldId);
      if (field == null || !field.isSetType()) {
        throw new UnsupportedDeletesException(
            deleteFile,
            dataFile,
            ("Cannot apply equality deletes %s to data file %s: %s has no top-level column with"
                    + " field id %d (a column added after the file was written, or a nested field)")
                .formatted(deleteFile, dataFile, file, fieldId));
      }
      checkType(field, deleteFile, dataFile);
      columns.add(field.getName());
    }
    if (footer.rowCount() == 0) {
      return;
    }
    ReadRequest request =
        new ReadRequest(
            location, fileSize, Optional.of(footer), Optional.empty(), columns, RowSelection.all());
    try (ParquetRead parquet = reader.start(request)) {
      while (parquet.hasNext()) {
        RowGroupBatch batch = parquet.next();
        List<ColumnBatch> values = new ArrayList<>(columns.size());
        for (String column : columns) {
          values.add(batch.column(column));
        }
        int rows = values.getFirst().rowCount();
        for (int row = 0; row < rows; row++) {
          List<Object> key = new ArrayList<>(values.size());
          for (ColumnBatch column : values) {
            key.add(value(column, row));
          }
          consumer.accept(batch.firstRow() + row, key);
        }
      }
    }
  }

  private static void checkType(SchemaElement field, String deleteFile, String dataFile)
      throws UnsupportedDeletesException {
    if (field.getRepetition_type() == org.apache.parquet.format.FieldRepetitionType.REPEATED) {
      throw new UnsupportedDeletesException(
          deleteFile,
          dataFile,
          "Cannot apply equality deletes %s to data file %s: column %s is repeated"
              .formatted(deleteFile, dataFile, field.getName()));
    }
    Type type = field.getType();
    if (type == Type.FLOAT || type == Type.DOUBLE || type == Type.INT96) {
      throw new UnsupportedDeletesException(
          deleteFile,
          dataFile,
          ("Cannot apply equality deletes %s to data file %s: equality on %s column %s is not"
                  + " supported (Iceberg compares floating point with Java equals, where -0.0"
                  + " differs from 0.0; rewrite these deletes as position deletes)")
              .formatted(deleteFile, dataFile, type, field.getName()));
    }
  }

  /** A value in its comparison form: Long, Boolean or a ByteBuffer of the bytes; null for NULL. */
  private static Object value(ColumnBatch column, int row) {
    if (column.isNull(row)) {
      return null;
    }
    PrimitiveValues values = column.values();
    return switch (values.type()) {
      case BOOLEAN -> values.booleans()[row];
      case INT32 -> (long) values.ints()[row];
      case INT64 -> values.longs()[row];
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY ->
          ByteBuffer.wrap(
              Arrays.copyOfRange(
                  values.binaryData(),
                  values.binaryOffsets()[row],
                  values.binaryOffsets()[row + 1]));
      default ->
          throw new IllegalStateException(
              "Cannot compare %s values of %s".formatted(values.type(), column.column()));
    };
  }

  /** The top-level fields of a footer schema by field id; empty when one has no field id. */
  static Map<Integer, SchemaElement> topLevelFields(List<SchemaElement> elements) {
    Map<Integer, SchemaElement> fields = new HashMap<>();
    int[] remaining = new int[elements.size() + 1];
    int depth = 0;
    remaining[0] = elements.getFirst().getNum_children();
    for (int i = 1; i < elements.size(); i++) {
      while (depth > 0 && remaining[depth] == 0) {
        depth--;
      }
      remaining[depth]--;
      SchemaElement element = elements.get(i);
      if (depth == 0) {
        if (!element.isSetField_id()) {
          return Map.of();
        }
        fields.put(element.getField_id(), element);
      }
      if (!element.isSetType()) {
        depth++;
        remaining[depth] = element.getNum_children();
      }
    }
    return fields;
  }
}
