package io.shelfmark.segment.startree;

import java.util.Arrays;

/**
 * Turns a file's rows into its star-tree records by sorting instead of hashing: each row's tuple of
 * final (value-ordered) ids is packed into one long above the row's position, the longs are sorted
 * once, and one sequential pass aggregates each run of equal tuples into a record, in split order,
 * and rolls up each run of records equal on all dimensions but the last that holds fewer than
 * {@code minRowsPerRecord} rows per record (the rule of {@link StarTreeBuilder}).
 *
 * <p>Why: a hash table of up to a million distinct tuples per file costs a cache miss or three per
 * row (the slot, the tuple it names, the record's aggregates), and the records then had to be
 * sorted anyway. Here a row costs a sequential write while the file streams, its share of one
 * primitive sort, and one random read of its metric values; the records come out sorted. Rows of
 * one tuple are added in file order (the position breaks ties), so every sum is added in the same
 * order as the hash table added it and the records are identical, bit for bit.
 *
 * <p>One use, not thread safe.
 */
final class SortedRecords {
  /** Rows whose values {@link #gather} copies at a time: enough misses in flight, few kilobytes. */
  private static final int GATHER_BLOCK = 512;

  /** Bits of the tuple one radix pass sorts on: 2,048 counters, which stay in the L1 cache. */
  private static final int DIGIT_BITS = 11;

  /** Fewer rows than this are sorted by {@link Arrays#sort}, whose set-up is cheaper. */
  static final int RADIX_MIN_ROWS = 4096;

  private final int arity;
  private final Aggregates aggregates;
  private final int width;
  private final int minRowsPerRecord;
  // The rows of the file, for StarTreeConstruction.KEEP_SHARE.
  private final long totalRows;
  private final int[] idBits;
  private final int positionBits;
  private int[] tuples;
  private long[] rows;
  private int records;
  private int collected;
  private boolean rolledUp;

  /**
   * @param idBits per dimension, the bits its final ids take (ids are 0 up to values, the null id
   *     being values)
   * @param positionBits the bits a row's position takes
   */
  private SortedRecords(
      int arity,
      Aggregates aggregates,
      int minRowsPerRecord,
      int[] idBits,
      int positionBits,
      long totalRows) {
    this.totalRows = totalRows;
    this.arity = arity;
    this.aggregates = aggregates;
    this.width = aggregates.width();
    this.minRowsPerRecord = minRowsPerRecord;
    this.idBits = idBits;
    this.positionBits = positionBits;
  }

  /**
   * The bits one packed key takes for rows with these id counts (null id included), or more than 63
   * when they do not fit (then the builder hashes instead).
   */
  static int keyBits(int[] idCounts, int rowCount) {
    int bits = bitsFor(rowCount);
    for (int count : idCounts) {
      bits += bitsFor(count);
    }
    return bits;
  }

  /** The bits that hold 0 .. {@code count - 1}. */
  static int bitsFor(int count) {
    return count <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(count - 1);
  }

  /**
   * Aggregates the rows into sorted (and rolled-up) records.
   *
   * @param rowIds per row, its provisional ids ({@code arity} ints a row); consumed
   * @param renumber per dimension, each provisional id's final id
   * @param idCounts per dimension, its final ids (null id included)
   * @param rowValues per row, its metric values as {@link Aggregates#addPacked} reads them
   */
  static SortedRecords aggregate(
      int arity,
      Aggregates aggregates,
      int minRowsPerRecord,
      int[] rowIds,
      int rowCount,
      int[][] renumber,
      int[] idCounts,
      long[] rowValues,
      int rowWidth) {
    int[] idBits = new int[arity];
    for (int d = 0; d < arity; d++) {
      idBits[d] = bitsFor(idCounts[d]);
    }
    SortedRecords sorted =
        new SortedRecords(arity, aggregates, minRowsPerRecord, idBits, bitsFor(rowCount), rowCount);
    long[] keys = sorted.keys(rowIds, rowCount, renumber);
    int tupleBits = 0;
    for (int bits : idBits) {
      tupleBits += bits;
    }
    sortByTuple(keys, sorted.positionBits, tupleBits);
    sorted.collect(keys, rowValues, rowWidth);
    return sorted;
  }

  /**
   * Sorts the keys (made in row order) by their tuple bits, above {@code positionBits}, keeping
   * equal tuples' rows in row order: the order a sort of the whole keys gives, since the position
   * breaks the ties. A least-significant-digit radix sort over the tuple bits alone: a few
   * sequential passes of at most {@link #DIGIT_BITS} bits each (a file's tuples take 20 to 30 bits:
   * one-second buckets of a day, a few hundred metrics), against the n log n comparisons of a
   * quicksort over the whole keys, position bits included. Small inputs take the plain sort.
   */
  static void sortByTuple(long[] keys, int positionBits, int tupleBits) {
    int n = keys.length;
    if (n < RADIX_MIN_ROWS) {
      Arrays.sort(keys);
      return;
    }
    int passes = (tupleBits + DIGIT_BITS - 1) / DIGIT_BITS;
    if (passes == 0) {
      return;
    }
    int digitBits = (tupleBits + passes - 1) / passes;
    int mask = (1 << digitBits) - 1;
    int[] starts = new int[1 << digitBits];
    long[] from = keys;
    long[] to = new long[n];
    for (int pass = 0; pass < passes; pass++) {
      int shift = positionBits + pass * digitBits;
      Arrays.fill(starts, 0);
      for (long key : from) {
        starts[(int) (key >>> shift) & mask]++;
      }
      if (starts[(int) (from[0] >>> shift) & mask] == n) {
        continue; // every key has this digit: the pass would move nothing
      }
      int sum = 0;
      for (int digit = 0; digit < starts.length; digit++) {
        int count = starts[digit];
        starts[digit] = sum;
        sum += count;
      }
      for (long key : from) {
        to[starts[(int) (key >>> shift) & mask]++] = key;
      }
      long[] swap = from;
      from = to;
      to = swap;
    }
    if (from != keys) {
      System.arraycopy(from, 0, keys, 0, n);
    }
  }

  private long[] keys(int[] rowIds, int rowCount, int[][] renumber) {
    long[] keys = new long[rowCount];
    for (int row = 0; row < rowCount; row++) {
      int at = row * arity;
      long key = 0;
      for (int d = 0; d < arity; d++) {
        key = (key << idBits[d]) | renumber[d][rowIds[at + d]];
      }
      keys[row] = (key << positionBits) | row;
    }
    return keys;
  }

  private void collect(long[] keys, long[] rowValues, int rowWidth) {
    int capacity = Math.max(16, keys.length / 4);
    tuples = new int[capacity * arity];
    rows = new long[capacity * width];
    long positionMask = (1L << positionBits) - 1;
    int lastBits = idBits[arity - 1];
    long previousTuple = -1;
    long previousPrefix = -1;
    int runStart = 0;
    long[] block = new long[GATHER_BLOCK * rowWidth];
    for (int from = 0; from < keys.length; from += GATHER_BLOCK) {
      int to = Math.min(keys.length, from + GATHER_BLOCK);
      gather(keys, from, to, positionMask, rowValues, rowWidth, block);
      for (int k = from; k < to; k++) {
        long tuple = keys[k] >>> positionBits;
        if (tuple != previousTuple) {
          long prefix = tuple >>> lastBits;
          if (records > 0 && prefix != previousPrefix) {
            endRun(runStart);
            runStart = records;
          }
          newRecord(tuple);
          previousTuple = tuple;
          previousPrefix = prefix;
        }
        aggregates.addPacked(rows, (records - 1) * width, block, (k - from) * rowWidth);
      }
    }
    if (records > 0) {
      endRun(runStart);
    }
  }

  /**
   * Copies the packed values of the rows of keys {@code [from, to)} into {@code block}, in key
   * order. Why a separate loop: reading a row's values in key order is a cache miss a row (the rows
   * of a tuple are spread over the file), and this loop does nothing else, so the processor keeps
   * many of those misses in flight at once, where the aggregation loop's longer body kept few.
   */
  private static void gather(
      long[] keys,
      int from,
      int to,
      long positionMask,
      long[] rowValues,
      int rowWidth,
      long[] block) {
    if (rowWidth == 3) {
      for (int k = from, at = 0; k < to; k++, at += 3) {
        int source = (int) (keys[k] & positionMask) * 3;
        block[at] = rowValues[source];
        block[at + 1] = rowValues[source + 1];
        block[at + 2] = rowValues[source + 2];
      }
      return;
    }
    for (int k = from, at = 0; k < to; k++, at += rowWidth) {
      int source = (int) (keys[k] & positionMask) * rowWidth;
      System.arraycopy(rowValues, source, block, at, rowWidth);
    }
  }

  private void newRecord(long tuple) {
    if ((records + 1) * arity > tuples.length) {
      tuples = Arrays.copyOf(tuples, tuples.length * 2);
      rows = Arrays.copyOf(rows, rows.length * 2);
    }
    int at = records * arity;
    for (int d = arity - 1; d >= 0; d--) {
      tuples[at + d] = (int) (tuple & ((1L << idBits[d]) - 1));
      tuple >>>= idBits[d];
    }
    records++;
    collected++;
  }

  /**
   * The run of records {@code [start, records)} is equal on every dimension but the last: rolled up
   * into its first record when they hold fewer than {@code minRowsPerRecord} rows each on average
   * and less than {@link StarTreeConstruction#KEEP_SHARE} of the file's rows, merged in order, as
   * {@link StarTreeConstruction} does it over sorted records.
   */
  private void endRun(int start) {
    int run = records - start;
    if (minRowsPerRecord <= 1 || arity < 2 || run <= 1) {
      return;
    }
    long rowCount = 0;
    for (int r = start; r < records; r++) {
      rowCount += rows[r * width];
    }
    if (rowCount >= (long) minRowsPerRecord * run
        || rowCount >= StarTreeConstruction.KEEP_SHARE * totalRows) {
      return;
    }
    for (int r = start + 1; r < records; r++) {
      aggregates.merge(rows, start * width, rows, r * width);
    }
    Arrays.fill(rows, (start + 1) * width, records * width, 0);
    tuples[start * arity + arity - 1] = StarTree.ROLLED;
    records = start + 1;
    rolledUp = true;
  }

  int[] tuples() {
    return tuples;
  }

  long[] rows() {
    return rows;
  }

  int records() {
    return records;
  }

  /** The distinct tuples of the rows, before any roll-up. */
  int collected() {
    return collected;
  }

  /** Whether a run was rolled up (then values may be left that no record holds). */
  boolean rolledUp() {
    return rolledUp;
  }
}
