package io.shelfmark.indexbuilder.column;

import static java.util.Objects.requireNonNull;

import io.shelfmark.indexbuilder.spec.StarTreeSpec;
import io.shelfmark.parquet.batch.ColumnBatch;
import io.shelfmark.parquet.batch.Float16;
import io.shelfmark.parquet.batch.Int96;
import io.shelfmark.parquet.batch.PrimitiveValues;
import io.shelfmark.parquet.read.RowGroupBatch;
import io.shelfmark.segment.spi.ValueType;
import io.shelfmark.segment.startree.StarTree;
import io.shelfmark.segment.startree.StarTreeBuilder;
import io.shelfmark.segment.startree.StarTreeSketch;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Moves a data file's decoded row groups into one star-tree's records: per row, each dimension's
 * value (a column's, a map key's — null when the row lacks the key — or a time bucket's) and each
 * metric's, then each sketch column's (as the long {@link StarTreeBuilder} takes for it). A
 * dictionary-encoded batch looks each distinct value up once per row group. Columns the file does
 * not have are null in every row. Not thread safe.
 */
final class StarTreeFeeder {
  /** Where a dimension or metric's values come from in the read's batches. */
  sealed interface Source {}

  /** A column the data file does not have: null in every row. */
  record Absent() implements Source {}

  /** A flat column, bucketed when {@code bucketWidth} is positive. */
  record Flat(int batchIndex, Conversion conversion, long bucketWidth) implements Source {}

  /** An extracted key of a map column. */
  record MapKey(int keyIndex, int valueIndex, byte[] key) implements Source {}

  private final StarTreeSpec spec;
  private final List<Source> dimensions;
  private final List<Source> metrics;
  private final List<Source> sketches;
  private final StarTreeBuilder builder;
  // Per-batch columns, reused across row groups (see ensureScratch).
  private int[][] ids;
  private boolean[][] nulls;
  private long[][] longs;
  private double[][] doubles;
  private long rowsFed;
  private long feedNanos;
  private long cpuNanos;

  /**
   * @param fileRows the data file's rows (from its footer), to size the row buffers once
   */
  StarTreeFeeder(
      StarTreeSpec spec,
      List<Source> dimensions,
      List<Source> metrics,
      List<Source> sketches,
      long fileRows) {
    this.spec = requireNonNull(spec, "spec is null");
    this.dimensions = List.copyOf(dimensions);
    this.metrics = List.copyOf(metrics);
    this.sketches = List.copyOf(sketches);
    this.builder =
        new StarTreeBuilder(
            spec.segmentDimensions(),
            spec.segmentMetrics(),
            spec.segmentSketches(),
            spec.maxLeafRecords(),
            spec.minRowsPerRecord(),
            spec.skipStarDimensions());
    builder.expectRows((int) Math.min(fileRows, 1 << 24));
  }

  void feed(RowGroupBatch batch) {
    long start = System.nanoTime();
    long cpuStart = ThreadCpu.nanos();
    int rows = batch.rows().size();
    ensureScratch(rows);
    int arity = dimensions.size();
    for (int d = 0; d < arity; d++) {
      dimensionIds(d, batch, rows, ids[d]);
    }
    for (int m = 0; m < metrics.size(); m++) {
      Arrays.fill(nulls[m], 0, rows, false);
      fillMetric(metrics.get(m), batch, rows, nulls[m], longs[m], doubles[m]);
    }
    for (int k = 0, m = metrics.size(); k < sketches.size(); k++, m++) {
      Arrays.fill(nulls[m], 0, rows, false);
      fillSketch(k, batch, rows, nulls[m], longs[m]);
    }
    builder.addRows(ids, nulls, longs, doubles, rows);
    rowsFed += rows;
    feedNanos += System.nanoTime() - start;
    cpuNanos += ThreadCpu.nanos() - cpuStart;
  }

  /** The distinct dimension tuples of the rows, before any roll-up; known once built. */
  int collectedRecords() {
    return builder.collectedRecords();
  }

  /** Time spent in {@link #feed}, for the build's debug log. */
  long feedNanos() {
    return feedNanos;
  }

  /** The building thread's CPU time in {@link #feed} and {@link #build}. */
  long cpuNanos() {
    return cpuNanos;
  }

  /** The tree over every row fed, plus null rows up to {@code fileRows} (nothing was read). */
  StarTree build(long fileRows) {
    long cpuStart = ThreadCpu.nanos();
    try {
      return buildTree(fileRows);
    } finally {
      cpuNanos += ThreadCpu.nanos() - cpuStart;
    }
  }

  private StarTree buildTree(long fileRows) {
    ids = null;
    nulls = null;
    longs = null;
    doubles = null;
    int arity = dimensions.size();
    int[] tuple = new int[arity];
    for (int d = 0; d < arity; d++) {
      tuple[d] = builder.valueId(d, null);
    }
    int columns = metrics.size() + sketches.size();
    boolean[] allNull = new boolean[columns];
    Arrays.fill(allNull, true);
    long[] longs = new long[columns];
    double[] doubles = new double[columns];
    for (long r = rowsFed; r < fileRows; r++) {
      builder.addRow(tuple, allNull, longs, doubles);
    }
    return builder.build();
  }

  /**
   * Sizes the per-batch columns for {@code rows}: kept across row groups, since a row group's
   * columns are megabytes that G1 would otherwise allocate as humongous objects each time.
   */
  private void ensureScratch(int rows) {
    if (ids != null && ids.length > 0 && ids[0].length >= rows) {
      return;
    }
    int size = Math.max(rows, 1024);
    int metricCount = metrics.size();
    int columns = metricCount + sketches.size();
    ids = new int[dimensions.size()][size];
    nulls = new boolean[columns][size];
    longs = new long[columns][];
    doubles = new double[columns][];
    for (int m = 0; m < columns; m++) {
      if (m >= metricCount || spec.metrics().get(m).type() == ValueType.LONG) {
        longs[m] = new long[size];
      } else {
        doubles[m] = new double[size];
      }
    }
  }

  private void dimensionIds(int d, RowGroupBatch batch, int rows, int[] ids) {
    switch (dimensions.get(d)) {
      case Absent absent -> Arrays.fill(ids, 0, rows, builder.valueId(d, null));
      case Flat flat -> {
        ColumnBatch column = batch.columns().get(flat.batchIndex());
        int nullId = -1;
        if (column.isDictionaryEncoded()) {
          PrimitiveValues dictionary = column.dictionary();
          int[] known = new int[dictionary.size()];
          Arrays.fill(known, -1);
          int[] dictionaryIds = column.dictionaryIds();
          for (int r = 0; r < rows; r++) {
            if (column.hasNulls() && column.isNull(r)) {
              ids[r] = nullId >= 0 ? nullId : (nullId = builder.valueId(d, null));
              continue;
            }
            int id = dictionaryIds[r];
            if (known[id] < 0) {
              known[id] = builder.valueId(d, value(dictionary, id, flat));
            }
            ids[r] = known[id];
          }
        } else if (flat.conversion().valueType() == ValueType.LONG) {
          longIds(d, column, flat, rows, ids);
        } else {
          PrimitiveValues values = column.values();
          for (int r = 0; r < rows; r++) {
            boolean isNull = column.hasNulls() && column.isNull(r);
            ids[r] = builder.valueId(d, isNull ? null : value(values, r, flat));
          }
        }
      }
      case MapKey mapKey -> mapKeyIds(d, mapKey, batch, rows, ids);
    }
  }

  /**
   * A plain-encoded LONG column's ids (timestamps, mostly): no boxing, and a row whose value (or
   * bucket) equals the previous row's reuses its id, since files sorted on time give long runs.
   */
  private void longIds(int d, ColumnBatch column, Flat flat, int rows, int[] ids) {
    PrimitiveValues values = column.values();
    long width = flat.bucketWidth();
    boolean hasNulls = column.hasNulls();
    long previous = 0;
    int previousId = -1;
    for (int r = 0; r < rows; r++) {
      if (hasNulls && column.isNull(r)) {
        ids[r] = builder.valueId(d, null);
        continue;
      }
      long value = longAt(values, r, flat.conversion());
      if (width > 0) {
        // Still in the previous row's bucket: no division (a timestamp's rows come in runs).
        if (previousId >= 0
            && value >= previous
            && Long.compareUnsigned(value - previous, width) < 0) {
          ids[r] = previousId;
          continue;
        }
        value = Math.floorDiv(value, width) * width;
      }
      if (previousId < 0 || value != previous) {
        previousId = builder.longValueId(d, value);
        previous = value;
      }
      ids[r] = previousId;
    }
  }

  private void mapKeyIds(int d, MapKey source, RowGroupBatch batch, int rows, int[] ids) {
    ColumnBatch keys = batch.columns().get(source.keyIndex());
    ColumnBatch values = batch.columns().get(source.valueIndex());
    int[] offsets = keys.offsets(1);
    int wantedKeyId = -2;
    if (keys.isDictionaryEncoded()) {
      PrimitiveValues dictionary = keys.dictionary();
      for (int id = 0; id < dictionary.size(); id++) {
        if (matches(dictionary.binaryData(), dictionary.binaryOffsets(), id, source.key())) {
          wantedKeyId = id;
        }
      }
    }
    int[] knownValues = null;
    if (values.isDictionaryEncoded()) {
      knownValues = new int[values.dictionary().size()];
      Arrays.fill(knownValues, -1);
    }
    int nullId = builder.valueId(d, null);
    for (int r = 0; r < rows; r++) {
      int found = -1;
      // A repeated key's last entry wins, as in the extracted key's column.
      for (int e = offsets[r]; e < offsets[r + 1]; e++) {
        boolean match =
            keys.isDictionaryEncoded()
                ? keys.dictionaryIds()[e] == wantedKeyId
                : matches(
                    keys.values().binaryData(), keys.values().binaryOffsets(), e, source.key());
        if (match) {
          found = e;
        }
      }
      if (found < 0 || (values.hasNulls() && values.isNull(found))) {
        ids[r] = nullId;
      } else if (knownValues != null) {
        int id = values.dictionaryIds()[found];
        if (knownValues[id] < 0) {
          knownValues[id] = builder.valueId(d, string(values.dictionary(), id));
        }
        ids[r] = knownValues[id];
      } else {
        ids[r] = builder.valueId(d, string(values.values(), found));
      }
    }
  }

  private static boolean matches(byte[] data, int[] offsets, int index, byte[] key) {
    return Arrays.equals(key, 0, key.length, data, offsets[index], offsets[index + 1]);
  }

  private static String string(PrimitiveValues values, int index) {
    int[] offsets = values.binaryOffsets();
    return new String(
        values.binaryData(),
        offsets[index],
        offsets[index + 1] - offsets[index],
        StandardCharsets.UTF_8);
  }

  private static Object value(PrimitiveValues values, int index, Flat flat) {
    return switch (flat.conversion().valueType()) {
      case LONG -> {
        long value = longAt(values, index, flat.conversion());
        yield flat.bucketWidth() > 0
            ? Math.floorDiv(value, flat.bucketWidth()) * flat.bucketWidth()
            : value;
      }
      case DOUBLE -> doubleAt(values, index, flat.conversion());
      case STRING -> string(values, index);
    };
  }

  private static long longAt(PrimitiveValues values, int index, Conversion conversion) {
    return switch (conversion) {
      case BOOLEAN -> values.booleans()[index] ? 1 : 0;
      case INT32 -> values.ints()[index];
      case UINT32 -> Integer.toUnsignedLong(values.ints()[index]);
      case INT64 -> values.longs()[index];
      case INT96 -> Int96.toEpochMicros(values.binaryData(), values.binaryOffsets()[index]);
      default -> throw new IllegalStateException("Cannot read " + conversion + " as a long");
    };
  }

  private static double doubleAt(PrimitiveValues values, int index, Conversion conversion) {
    return switch (conversion) {
      case FLOAT -> values.floats()[index];
      case FLOAT16 -> Float16.toFloat(values.binaryData(), values.binaryOffsets()[index]);
      case DOUBLE -> values.doubles()[index];
      default -> throw new IllegalStateException("Cannot read " + conversion + " as a double");
    };
  }

  /**
   * Sketch column {@code k}'s values as {@link StarTreeBuilder} takes them: a long as itself, a
   * double as its canonical bits, a string as its id (looked up once per dictionary entry).
   */
  private void fillSketch(int k, RowGroupBatch batch, int rows, boolean[] nulls, long[] longs) {
    if (!(sketches.get(k) instanceof Flat flat)) {
      Arrays.fill(nulls, true);
      return;
    }
    ColumnBatch column = batch.columns().get(flat.batchIndex());
    boolean dictionary = column.isDictionaryEncoded();
    PrimitiveValues values = dictionary ? column.dictionary() : column.values();
    int[] dictionaryIds = dictionary ? column.dictionaryIds() : null;
    long[] known = null;
    boolean[] seen = null;
    if (dictionary) {
      known = new long[values.size()];
      seen = new boolean[values.size()];
    }
    ValueType type = flat.conversion().valueType();
    for (int r = 0; r < rows; r++) {
      if (column.hasNulls() && column.isNull(r)) {
        nulls[r] = true;
        continue;
      }
      int index = dictionary ? dictionaryIds[r] : r;
      if (dictionary && seen[index]) {
        longs[r] = known[index];
        continue;
      }
      long value =
          switch (type) {
            case LONG -> longAt(values, index, flat.conversion());
            case DOUBLE -> StarTreeSketch.canonicalBits(doubleAt(values, index, flat.conversion()));
            case STRING -> builder.sketchStringId(k, string(values, index));
          };
      if (dictionary) {
        known[index] = value;
        seen[index] = true;
      }
      longs[r] = value;
    }
  }

  private static void fillMetric(
      Source source,
      RowGroupBatch batch,
      int rows,
      boolean[] nulls,
      long[] longs,
      double[] doubles) {
    if (!(source instanceof Flat flat)) {
      Arrays.fill(nulls, true);
      return;
    }
    ColumnBatch column = batch.columns().get(flat.batchIndex());
    boolean dictionary = column.isDictionaryEncoded();
    PrimitiveValues values = dictionary ? column.dictionary() : column.values();
    int[] dictionaryIds = dictionary ? column.dictionaryIds() : null;
    for (int r = 0; r < rows; r++) {
      if (column.hasNulls() && column.isNull(r)) {
        nulls[r] = true;
        continue;
      }
      int index = dictionary ? dictionaryIds[r] : r;
      if (longs != null) {
        longs[r] = longAt(values, index, flat.conversion());
      } else {
        doubles[r] = doubleAt(values, index, flat.conversion());
      }
    }
  }
}
