package io.shelfmark.segment.startree;

import static com.google.common.base.Preconditions.checkArgument;
import static com.google.common.base.Preconditions.checkState;
import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.spi.ValueType;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Collects one data file's rows into star-tree records: each distinct tuple of dimension values
 * with its aggregates. Lifecycle: {@link #valueId} (or {@link #longValueId} for a LONG dimension,
 * without boxing) for each row's dimension values, {@link #addRow} (or {@link #addRows} for a
 * batch) with those ids and the row's metric values, then {@link #build} once. Memory while
 * collecting: per row 4 bytes per dimension and 8 per metric or sketch column (plus a null word),
 * each dimension's distinct values and each STRING sketch column's; {@link #build} adds 8 bytes per
 * row for the sort and then the records, with a sketch object per record and sketch column (a small
 * list while it holds few values, a 4 KB register array once it holds more than a few hundred). Not
 * thread safe.
 *
 * <p>With {@code minRowsPerRecord} above 1, the records of the last dimension are kept only where
 * they pay: for each combination of the other dimensions' values whose records hold fewer than
 * {@code minRowsPerRecord} rows each on average, one <em>rolled-up</em> record replaces them (the
 * last dimension aggregated away). A one-second bucket of a sparse metric makes one record per row,
 * which costs more than the row and saves a query little: the row path reads few rows for it.
 */
public final class StarTreeBuilder {
  /** The default {@code max-leaf-records}: a node with more records is split further. */
  public static final int DEFAULT_MAX_LEAF_RECORDS = 10_000;

  private final List<StarTreeDimension> dimensions;
  private final Aggregates aggregates;
  private final int maxLeafRecords;
  private final int minRowsPerRecord;
  private final Set<Integer> skipStarDimensions;
  private final List<Map<Object, Integer>> valueIds;
  // Per LONG dimension its primitive id table (null for other types), which valueIds then leaves
  // empty.
  private final LongIds[] longIds;
  private final int[] idCounts;
  private final int[] nullIds;
  private final int arity;
  // The rows as fed: per row its provisional ids, and its metric values packed (Aggregates.pack).
  private int[] rowIds = new int[1024];
  private long[] rowValues;
  private final int rowWidth;
  private int rowCount;
  // The records (distinct tuples) and their aggregates, filled by build.
  private int[] tuples;
  private long[] rows;
  private int records;
  private int collectedRecords = -1;
  private boolean built;

  /**
   * @param dimensions in split order
   * @param metrics the numeric columns aggregated
   * @param maxLeafRecords a node holding more records is split on its next dimension
   * @param skipStarDimensions indexes into {@code dimensions} that get no star node
   */
  public StarTreeBuilder(
      List<StarTreeDimension> dimensions,
      List<StarTreeMetric> metrics,
      int maxLeafRecords,
      Set<Integer> skipStarDimensions) {
    this(dimensions, metrics, maxLeafRecords, 1, skipStarDimensions);
  }

  /**
   * @param dimensions in split order
   * @param metrics the numeric columns aggregated
   * @param maxLeafRecords a node holding more records is split on its next dimension
   * @param minRowsPerRecord the last dimension's records of a combination of the other dimensions
   *     are rolled up into one when they hold fewer rows each on average (1: never)
   * @param skipStarDimensions indexes into {@code dimensions} that get no star node
   */
  public StarTreeBuilder(
      List<StarTreeDimension> dimensions,
      List<StarTreeMetric> metrics,
      int maxLeafRecords,
      int minRowsPerRecord,
      Set<Integer> skipStarDimensions) {
    this(dimensions, metrics, List.of(), maxLeafRecords, minRowsPerRecord, skipStarDimensions);
  }

  /**
   * @param dimensions in split order
   * @param metrics the numeric columns aggregated
   * @param sketches the columns whose distinct values each record sketches; a row's values of them
   *     follow its metric values in {@link #addRow}'s and {@link #addRows}' arrays, as longs
   *     ({@link StarTreeSketch}: a LONG's value, a DOUBLE's canonical bits, a STRING's {@link
   *     #sketchStringId})
   * @param maxLeafRecords a node holding more records is split on its next dimension
   * @param minRowsPerRecord the last dimension's records of a combination of the other dimensions
   *     are rolled up into one when they hold fewer rows each on average (1: never)
   * @param skipStarDimensions indexes into {@code dimensions} that get no star node
   */
  public StarTreeBuilder(
      List<StarTreeDimension> dimensions,
      List<StarTreeMetric> metrics,
      List<StarTreeSketch> sketches,
      int maxLeafRecords,
      int minRowsPerRecord,
      Set<Integer> skipStarDimensions) {
    this.dimensions = List.copyOf(requireNonNull(dimensions, "dimensions is null"));
    checkArgument(!dimensions.isEmpty(), "a star-tree needs at least one dimension");
    checkArgument(maxLeafRecords >= 1, "max-leaf-records must be positive: %s", maxLeafRecords);
    checkArgument(
        minRowsPerRecord >= 1, "min-rows-per-record must be positive: %s", minRowsPerRecord);
    this.minRowsPerRecord = minRowsPerRecord;
    this.aggregates =
        new Aggregates(
            requireNonNull(metrics, "metrics is null"),
            requireNonNull(sketches, "sketches is null"));
    this.maxLeafRecords = maxLeafRecords;
    this.skipStarDimensions = Set.copyOf(skipStarDimensions);
    this.arity = dimensions.size();
    this.valueIds = new java.util.ArrayList<>();
    this.longIds = new LongIds[arity];
    for (int d = 0; d < arity; d++) {
      valueIds.add(new HashMap<>());
      if (dimensions.get(d).type() == ValueType.LONG) {
        longIds[d] = new LongIds();
      }
    }
    this.idCounts = new int[arity];
    this.nullIds = new int[arity];
    Arrays.fill(nullIds, -1);
    this.rowWidth = aggregates.packedWidth();
    this.rowValues = new long[1024 * rowWidth];
  }

  /**
   * The provisional id of a dimension's value: a Long, Double or String matching the dimension's
   * type, or null. Ids are numbered in first-seen order and renumbered by value when built.
   */
  public int valueId(int dimension, Object value) {
    if (value == null) {
      if (nullIds[dimension] < 0) {
        // The null id takes a slot of its own among the provisional ids.
        nullIds[dimension] = idCounts[dimension]++;
      }
      return nullIds[dimension];
    }
    if (longIds[dimension] != null) {
      return longValueId(dimension, (Long) value);
    }
    if (value instanceof Double d && d == 0.0) {
      value = 0.0; // -0.0 and 0.0 are one value, as in SQL
    }
    Map<Object, Integer> ids = valueIds.get(dimension);
    Integer id = ids.get(value);
    if (id == null) {
      id = idCounts[dimension]++;
      ids.put(value, id);
    }
    return id;
  }

  /**
   * The long that stands for a STRING sketch column's (non-null) value in {@link #addRow}'s and
   * {@link #addRows}' value arrays.
   */
  public long sketchStringId(int sketch, String value) {
    return aggregates.stringId(sketch, requireNonNull(value, "value is null"));
  }

  /** The provisional id of a LONG dimension's (non-null) value, as {@link #valueId} gives it. */
  public int longValueId(int dimension, long value) {
    int next = idCounts[dimension];
    int id = longIds[dimension].idOf(value, next);
    if (id == next) {
      idCounts[dimension]++;
    }
    return id;
  }

  /**
   * Adds one row.
   *
   * @param ids per dimension, the value's id from {@link #valueId}
   * @param nulls per metric, then per sketch column, whether the row's value is null
   * @param longValues per LONG metric, its value, then per sketch column its value as a long (other
   *     slots ignored)
   * @param doubleValues per DOUBLE metric, its value (other slots ignored)
   */
  public void addRow(int[] ids, boolean[] nulls, long[] longValues, double[] doubleValues) {
    checkState(!built, "Cannot add a row to a built star-tree");
    ensureRows(1);
    System.arraycopy(ids, 0, rowIds, rowCount * arity, arity);
    aggregates.pack(rowValues, rowCount * rowWidth, nulls, longValues, doubleValues);
    rowCount++;
  }

  /**
   * Adds {@code count} rows given by column, as {@link #addRow} would one by one.
   *
   * @param ids per dimension, per row the value's id from {@link #valueId}
   * @param nulls per metric, then per sketch column, per row whether the value is null
   * @param longValues per metric, its rows' values when it is a LONG metric (else null); then per
   *     sketch column its rows' values as longs
   * @param doubleValues per metric, its rows' values when it is a DOUBLE metric (else null)
   */
  public void addRows(
      int[][] ids, boolean[][] nulls, long[][] longValues, double[][] doubleValues, int count) {
    checkState(!built, "Cannot add a row to a built star-tree");
    ensureRows(count);
    for (int d = 0; d < arity; d++) {
      int[] column = ids[d];
      int at = rowCount * arity + d;
      for (int r = 0; r < count; r++, at += arity) {
        rowIds[at] = column[r];
      }
    }
    int nullWords = rowWidth - nulls.length;
    for (int m = 0; m < nulls.length; m++) {
      boolean[] columnNulls = nulls[m];
      long[] longs = longValues[m];
      double[] doubles = doubleValues[m];
      int at = rowCount * rowWidth;
      int word = m >>> 6;
      long bit = 1L << m;
      for (int r = 0; r < count; r++, at += rowWidth) {
        if (columnNulls[r]) {
          rowValues[at + word] |= bit;
        } else {
          rowValues[at + nullWords + m] =
              longs != null ? longs[r] : Double.doubleToRawLongBits(doubles[r]);
        }
      }
    }
    rowCount += count;
  }

  private void ensureRows(int more) {
    long needed = (long) rowCount + more;
    checkState(
        needed * Math.max(arity, rowWidth) < Integer.MAX_VALUE,
        "Cannot add %s rows to a star-tree of %s rows: a file's tree holds at most %s rows",
        more,
        rowCount,
        Integer.MAX_VALUE / Math.max(arity, rowWidth));
    if (needed * arity > rowIds.length) {
      rowIds =
          Arrays.copyOf(
              rowIds,
              (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed * arity, rowIds.length * 2L)));
    }
    if (needed * rowWidth > rowValues.length) {
      rowValues =
          Arrays.copyOf(
              rowValues,
              (int)
                  Math.min(
                      Integer.MAX_VALUE - 8, Math.max(needed * rowWidth, rowValues.length * 2L)));
    }
  }

  /**
   * Sizes the row buffers for {@code rows} rows (a data file's row count, known from its footer),
   * so that a big file's rows are not copied over and over as the buffers double.
   */
  public void expectRows(int rows) {
    checkArgument(rows >= 0, "rows must not be negative: %s", rows);
    if (rows > rowCount) {
      ensureRows(rows - rowCount);
    }
  }

  /** Rows added so far. */
  public int rowCount() {
    return rowCount;
  }

  /** The distinct dimension tuples of the rows, before any roll-up; known once built. */
  public int collectedRecords() {
    checkState(built, "Cannot count a star-tree's records before it is built");
    return collectedRecords;
  }

  /**
   * Hash-table collection, the way records were collected before {@link SortedRecords}: for tuples
   * whose packed key does not fit in a long, and as the reference the sorted path is tested
   * against. Returns the record of the tuple at {@code ids[from..]}.
   */
  private int findOrAdd(int[] table, int[] ids, int from) {
    int mask = table.length - 1;
    int slot = hash(ids, from) & mask;
    while (true) {
      int entry = table[slot];
      if (entry == 0) {
        break;
      }
      if (Arrays.equals(tuples, (entry - 1) * arity, entry * arity, ids, from, from + arity)) {
        return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
    int record = records++;
    if ((record + 1) * arity > tuples.length) {
      tuples = Arrays.copyOf(tuples, tuples.length * 2);
    }
    if ((record + 1) * aggregates.width() > rows.length) {
      rows = Arrays.copyOf(rows, rows.length * 2);
    }
    System.arraycopy(ids, from, tuples, record * arity, arity);
    table[slot] = record + 1;
    return record;
  }

  /**
   * Mixes every bit of the tuple into the low bits the table's mask keeps. Ids are small and
   * numbered in first-seen order, so a weak mix (a polynomial, as this was) puts consecutive
   * seconds in consecutive slots, and linear probing then walks ever longer runs: at 1.6M records
   * per file the build took quadratic time.
   */
  private int hash(int[] ids, int from) {
    int h = 0;
    for (int d = 0; d < arity; d++) {
      h = h * 0x9E3779B1 + ids[from + d];
    }
    // MurmurHash3's 32-bit finalizer.
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    return h ^ (h >>> 16);
  }

  /**
   * Sorts each dimension's values, aggregates the rows into records (by one sort of packed keys,
   * {@link SortedRecords}, or through a hash table when a tuple does not pack into a long) and
   * builds the tree.
   */
  public StarTree build() {
    return build(false);
  }

  /** {@link #build} through the hash table whatever the tuples' size: the tests' reference. */
  StarTree buildHashed() {
    return build(true);
  }

  private StarTree build(boolean hashed) {
    checkState(!built, "Cannot build a star-tree twice");
    built = true;
    Object[][] values = new Object[arity][];
    boolean[] hasNull = new boolean[arity];
    int[][] renumber = new int[arity][];
    int[] finalCounts = new int[arity];
    for (int d = 0; d < arity; d++) {
      hasNull[d] = nullIds[d] >= 0;
      renumber[d] = new int[idCounts[d]];
      values[d] = longIds[d] != null ? sortLongs(d, renumber[d]) : sortObjects(d, renumber[d]);
      if (hasNull[d]) {
        renumber[d][nullIds[d]] = values[d].length;
      }
      finalCounts[d] = values[d].length + (hasNull[d] ? 1 : 0);
    }
    StarTreeConstruction construction =
        new StarTreeConstruction(
            dimensions,
            values,
            hasNull,
            aggregates,
            maxLeafRecords,
            minRowsPerRecord,
            skipStarDimensions);
    if (!hashed && SortedRecords.keyBits(finalCounts, rowCount) <= 63) {
      SortedRecords sorted =
          SortedRecords.aggregate(
              arity,
              aggregates,
              minRowsPerRecord,
              rowIds,
              rowCount,
              renumber,
              finalCounts,
              rowValues,
              rowWidth);
      rowIds = null;
      rowValues = null;
      collectedRecords = sorted.collected();
      return construction.constructSorted(
          sorted.tuples(), sorted.rows(), sorted.records(), sorted.rolledUp());
    }
    collectHashed();
    for (int record = 0; record < records; record++) {
      for (int d = 0; d < arity; d++) {
        int at = record * arity + d;
        tuples[at] = renumber[d][tuples[at]];
      }
    }
    collectedRecords = records;
    return construction.construct(tuples, rows, records);
  }

  private void collectHashed() {
    tuples = new int[1024 * arity];
    rows = new long[1024 * aggregates.width()];
    int[] table = new int[1024];
    int width = aggregates.width();
    for (int row = 0; row < rowCount; row++) {
      int record = findOrAdd(table, rowIds, row * arity);
      aggregates.addPacked(rows, record * width, rowValues, row * rowWidth);
      if (records * 2 > table.length) {
        table = rehash(table.length * 2);
      }
    }
    rowIds = null;
    rowValues = null;
  }

  private int[] rehash(int size) {
    int[] table = new int[size];
    int mask = size - 1;
    for (int record = 0; record < records; record++) {
      int slot = hash(tuples, record * arity) & mask;
      while (table[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      table[slot] = record + 1;
    }
    return table;
  }

  /** A LONG dimension's values in order, and each provisional id's final id in {@code renumber}. */
  private Object[] sortLongs(int d, int[] renumber) {
    long[] byId = longIds[d].valuesById(idCounts[d]);
    long[] sorted = new long[longIds[d].size()];
    int at = 0;
    for (int id = 0; id < byId.length; id++) {
      if (id != nullIds[d]) {
        sorted[at++] = byId[id];
      }
    }
    boolean ascending = true;
    for (int i = 1; i < sorted.length && ascending; i++) {
      ascending = sorted[i - 1] < sorted[i];
    }
    if (ascending) {
      // Seen in order (time buckets of a file sorted on time): the final ids are the provisional
      // ones, less one above the null id. No sort and no binary search per value.
      for (int id = 0, next = 0; id < byId.length; id++) {
        if (id != nullIds[d]) {
          renumber[id] = next++;
        }
      }
    } else {
      Arrays.sort(sorted);
      for (int id = 0; id < byId.length; id++) {
        if (id != nullIds[d]) {
          renumber[id] = Arrays.binarySearch(sorted, byId[id]);
        }
      }
    }
    Object[] boxed = new Object[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      boxed[i] = sorted[i];
    }
    return boxed;
  }

  private Object[] sortObjects(int d, int[] renumber) {
    Map<Object, Integer> ids = valueIds.get(d);
    Object[] sorted = ids.keySet().toArray();
    ValueType type = dimensions.get(d).type();
    Arrays.sort(sorted, (a, b) -> compareValues(type, a, b));
    for (int id = 0; id < sorted.length; id++) {
      renumber[ids.get(sorted[id])] = id;
    }
    return sorted;
  }

  static int compareValues(ValueType type, Object a, Object b) {
    return switch (type) {
      case LONG -> Long.compare((Long) a, (Long) b);
      case DOUBLE -> Aggregates.compare((Double) a, (Double) b);
      case STRING -> compareUtf8((String) a, (String) b);
    };
  }

  private static int compareUtf8(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
