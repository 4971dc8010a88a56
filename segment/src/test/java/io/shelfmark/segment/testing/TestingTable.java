package io.shelfmark.segment.testing;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.build.ColumnWriter;
import io.shelfmark.segment.build.MapColumnWriter;
import io.shelfmark.segment.build.SegmentBuilder;
import io.shelfmark.segment.index.IndexService;
import io.shelfmark.segment.index.mapkey.MapKeySelection;
import io.shelfmark.segment.metadata.DataFileIdentity;
import io.shelfmark.segment.metadata.PartitionValue;
import io.shelfmark.segment.spi.ColumnDescriptor;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.segment.spi.ValueType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A table held as plain Java values, the ground truth of differential tests: it builds a segment
 * through {@link SegmentBuilder} (in batches, like the index builder) and answers what each doc's
 * value is, for {@link ScanOracle}. Columns added with {@code indexed = false} stay out of the
 * segment, as columns a table config does not index.
 */
public final class TestingTable {
  /** Rows per row group of the data file the segment describes. */
  public static final int ROW_GROUP_ROWS = 10_000;

  private static final int BATCH = 1000;

  private final int docCount;
  private final Map<String, ColumnData> columns = new LinkedHashMap<>();
  private final Map<String, MapData> maps = new LinkedHashMap<>();
  private boolean keepConfiguredIndexes;

  public TestingTable(int docCount) {
    this.docCount = docCount;
  }

  /**
   * A column's values.
   *
   * @param values one per doc, {@code null} for SQL NULL
   * @param indexes the index type ids; ignored when not indexed
   * @param indexed whether the segment describes the column
   */
  public record ColumnData(ValueType type, Value[] values, List<String> indexes, boolean indexed) {}

  /**
   * A MAP&lt;STRING, STRING&gt; column's rows: each a list of entries (a key may repeat; the last
   * wins) or {@code null} for a null map; an entry's value may be null.
   */
  public record MapData(
      List<List<Map.Entry<String, String>>> rows,
      MapKeySelection selection,
      List<String> keyIndexes) {}

  /** Builds exactly the configured indexes, even on columns found sorted. */
  public TestingTable keepConfiguredIndexes() {
    keepConfiguredIndexes = true;
    return this;
  }

  public int docCount() {
    return docCount;
  }

  public TestingTable column(String name, ValueType type, Value[] values, String... indexes) {
    return put(name, new ColumnData(type, checkLength(values), List.of(indexes), true));
  }

  public TestingTable unindexedColumn(String name, ValueType type, Value[] values) {
    return put(name, new ColumnData(type, checkLength(values), List.of(), false));
  }

  private TestingTable put(String name, ColumnData data) {
    for (Value value : data.values()) {
      if (value != null && value.type() != data.type()) {
        throw new IllegalArgumentException(
            "column " + name + " holds a " + value.type() + " value");
      }
    }
    columns.put(name, data);
    return this;
  }

  public TestingTable mapColumn(
      String name,
      List<List<Map.Entry<String, String>>> rows,
      MapKeySelection selection,
      String... keyIndexes) {
    if (rows.size() != docCount) {
      throw new IllegalArgumentException(rows.size() + " map rows for " + docCount + " docs");
    }
    maps.put(name, new MapData(rows, selection, List.of(keyIndexes)));
    return this;
  }

  private Value[] checkLength(Value[] values) {
    if (values.length != docCount) {
      throw new IllegalArgumentException(values.length + " values for " + docCount + " docs");
    }
    return values;
  }

  public Map<String, ColumnData> columns() {
    return columns;
  }

  public Map<String, MapData> maps() {
    return maps;
  }

  /** The type of a column or extracted map key column, as predicates name it. */
  public Optional<ValueType> type(String column) {
    if (columns.containsKey(column)) {
      return Optional.of(columns.get(column).type());
    }
    return parseMapKey(column).map(key -> ValueType.STRING);
  }

  /**
   * The value of {@code column} (a column, or {@code map['key']}) at {@code doc}; null for NULL.
   */
  public Value value(String column, int doc) {
    return values(column)[doc];
  }

  /** Every doc's value of {@code column} (a column, or {@code map['key']}), resolved once. */
  public Value[] values(String column) {
    ColumnData data = columns.get(column);
    if (data != null) {
      return data.values();
    }
    return resolved.computeIfAbsent(column, this::resolveMapKey);
  }

  private final Map<String, Value[]> resolved = new java.util.HashMap<>();

  private Value[] resolveMapKey(String column) {
    Value[] values = new Value[docCount];
    for (int doc = 0; doc < docCount; doc++) {
      values[doc] = mapValue(column, doc);
    }
    return values;
  }

  private Value mapValue(String column, int doc) {
    String[] mapKey =
        parseMapKey(column).orElseThrow(() -> new IllegalArgumentException("no column " + column));
    List<Map.Entry<String, String>> row = maps.get(mapKey[0]).rows().get(doc);
    if (row == null) {
      return null;
    }
    String found = null;
    for (Map.Entry<String, String> entry : row) {
      if (entry.getKey().equals(mapKey[1])) {
        found = entry.getValue(); // the last entry wins, null values included
      }
    }
    return found == null ? null : Value.of(found);
  }

  private Optional<String[]> parseMapKey(String column) {
    int open = column.indexOf("['");
    if (open < 0 || !column.endsWith("']")) {
      return Optional.empty();
    }
    String map = column.substring(0, open);
    String key = column.substring(open + 2, column.length() - 2).replace("''", "'");
    if (!maps.containsKey(map) || !ColumnDescriptor.mapKeyName(map, key).equals(column)) {
      return Optional.empty();
    }
    return Optional.of(new String[] {map, key});
  }

  /** The data file the segment is said to index: one row group per {@link #ROW_GROUP_ROWS}. */
  public DataFileIdentity identity() {
    return new DataFileIdentity(
        "s3://lake/obs/metrics/data/part-00000.parquet",
        1234567,
        "DATA",
        "PARQUET",
        2,
        0,
        List.of(
            new PartitionValue("org_id", Optional.of("184833768")),
            new PartitionValue("day", Optional.empty())),
        docCount,
        OptionalLong.of(7),
        OptionalLong.of(7));
  }

  public List<Long> rowGroupRowCounts() {
    List<Long> counts = new ArrayList<>();
    for (int start = 0; start < docCount; start += ROW_GROUP_ROWS) {
      counts.add((long) Math.min(ROW_GROUP_ROWS, docCount - start));
    }
    return counts;
  }

  /** Builds the segment's bytes. */
  public byte[] build(IndexService indexes) throws IOException {
    SegmentBuilder builder = new SegmentBuilder(indexes, "testing");
    builder.sortedIndexReplacesRangeAndInverted(!keepConfiguredIndexes);
    builder.addDataFile(
        identity(), rowGroupRowCounts(), "PAR1-footer".getBytes(StandardCharsets.UTF_8), List.of());
    for (Map.Entry<String, ColumnData> entry : columns.entrySet()) {
      ColumnData data = entry.getValue();
      if (data.indexed()) {
        feed(builder.addColumn(entry.getKey(), data.type(), data.indexes()), data);
      }
    }
    for (Map.Entry<String, MapData> entry : maps.entrySet()) {
      MapData data = entry.getValue();
      feed(builder.addMapColumn(entry.getKey(), data.selection(), data.keyIndexes()), data);
    }
    return builder.toByteArray();
  }

  private void feed(ColumnWriter writer, ColumnData data) {
    for (int start = 0; start < docCount; start += BATCH) {
      int count = Math.min(BATCH, docCount - start);
      boolean[] nulls = new boolean[count];
      for (int i = 0; i < count; i++) {
        nulls[i] = data.values()[start + i] == null;
      }
      switch (data.type()) {
        case LONG -> {
          long[] values = new long[count];
          for (int i = 0; i < count; i++) {
            values[i] = nulls[i] ? 0 : ((Value.LongValue) data.values()[start + i]).value();
          }
          writer.addLongs(values, nulls, count);
        }
        case DOUBLE -> {
          double[] values = new double[count];
          for (int i = 0; i < count; i++) {
            values[i] = nulls[i] ? 0 : ((Value.DoubleValue) data.values()[start + i]).value();
          }
          writer.addDoubles(values, nulls, count);
        }
        case STRING -> {
          ByteArrayOutputStream bytes = new ByteArrayOutputStream();
          int[] offsets = new int[count + 1];
          for (int i = 0; i < count; i++) {
            if (!nulls[i]) {
              bytes.writeBytes(((Value.StringValue) data.values()[start + i]).utf8());
            }
            offsets[i + 1] = bytes.size();
          }
          writer.addBinary(bytes.toByteArray(), offsets, nulls, count);
        }
      }
    }
  }

  private void feed(MapColumnWriter writer, MapData data) {
    for (int start = 0; start < docCount; start += BATCH) {
      int count = Math.min(BATCH, docCount - start);
      int[] entryOffsets = new int[count + 1];
      boolean[] mapNulls = new boolean[count];
      ByteArrayOutputStream keys = new ByteArrayOutputStream();
      ByteArrayOutputStream values = new ByteArrayOutputStream();
      List<Integer> keyOffsets = new ArrayList<>(List.of(0));
      List<Integer> valueOffsets = new ArrayList<>(List.of(0));
      List<Boolean> valueNulls = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        List<Map.Entry<String, String>> row = data.rows().get(start + i);
        mapNulls[i] = row == null;
        if (row != null) {
          for (Map.Entry<String, String> entry : row) {
            keys.writeBytes(entry.getKey().getBytes(StandardCharsets.UTF_8));
            keyOffsets.add(keys.size());
            if (entry.getValue() != null) {
              values.writeBytes(entry.getValue().getBytes(StandardCharsets.UTF_8));
            }
            valueOffsets.add(values.size());
            valueNulls.add(entry.getValue() == null);
          }
        }
        entryOffsets[i + 1] = keyOffsets.size() - 1;
      }
      boolean[] entryValueNulls = new boolean[valueNulls.size()];
      for (int e = 0; e < entryValueNulls.length; e++) {
        entryValueNulls[e] = valueNulls.get(e);
      }
      writer.addMaps(
          count,
          entryOffsets,
          mapNulls,
          keys.toByteArray(),
          keyOffsets.stream().mapToInt(Integer::intValue).toArray(),
          values.toByteArray(),
          valueOffsets.stream().mapToInt(Integer::intValue).toArray(),
          entryValueNulls);
    }
  }

  /** A convenience: the values as given, requireNonNull'd array. */
  public static Value[] values(Value... values) {
    return requireNonNull(values, "values is null");
  }
}
