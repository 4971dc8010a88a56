package io.shelfmark.segment.startree;

import java.util.Arrays;

/**
 * Turns a file's rows into its star-tree records by sorting instead of hashing: each row's tuple of
 * final (value-ordered) ids is packed into one long above the row's position, and the longs are
 * sorted once. A pass over the sorted keys alone finds the records (runs of equal tuples, in split
 * order) and rolls up each run of records equal on all dimensions but the last that holds fewer
 * than {@code minRowsPerRecord} rows per record (the rule of {@link StarTreeBuilder}), noting each
 * row's record; a second pass adds the rows' values to their records in file order.
 *
 * <p>Why: a hash table of up to a million distinct tuples per file cost a cache miss or three per
 * row (the slot, the tuple it names, the record's aggregates), and the records then had to be
 * sorted anyway. Here a row costs a sequential write while the file streams, its share of one
 * primitive sort, a store of its record number, and a sequential read of its values into a record,
 * most often one of the few left after the roll-up. The records are the hash table's: the same
 * tuples, counts, integer sums, minima and maxima, and for a record that is not rolled up the same
 * double sums (rows added in file order); a rolled-up record's double sums add its rows in file
 * order rather than per-value partial sums, so they may differ in the last bits.
 *
 * <p>One use, not thread safe.
 */
final class SortedRecords {
  private final int arity;
  private final Aggregates aggregates;
  private final int width;
  private final int minRowsPerRecord;
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
      int arity, Aggregates aggregates, int minRowsPerRecord, int[] idBits, int positionBits) {
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
        new SortedRecords(arity, aggregates, minRowsPerRecord, idBits, bitsFor(rowCount));
    long[] keys = sorted.keys(rowIds, rowCount, renumber);
    Arrays.sort(keys);
    int[] recordOf = sorted.assign(keys);
    sorted.sum(recordOf, rowValues, rowWidth);
    return sorted;
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

  /**
   * Phase one, over the sorted keys alone: each run of equal tuples is a record, and each run of
   * records equal on all dimensions but the last is rolled up into one record when they hold fewer
   * than {@code minRowsPerRecord} rows each on average (a record's rows are its run's length).
   * Writes the kept records' tuples and each row's record.
   */
  private int[] assign(long[] keys) {
    int n = keys.length;
    int[] recordOf = new int[n];
    tuples = new int[Math.max(16, n / 64) * arity];
    long positionMask = (1L << positionBits) - 1;
    int prefixShift = positionBits + idBits[arity - 1];
    int i = 0;
    while (i < n) {
      long prefix = keys[i] >>> prefixShift;
      int end = i;
      int runTuples = 0;
      while (end < n && keys[end] >>> prefixShift == prefix) {
        long tuple = keys[end] >>> positionBits;
        end++;
        while (end < n && keys[end] >>> positionBits == tuple) {
          end++;
        }
        runTuples++;
      }
      collected += runTuples;
      boolean rollUp =
          minRowsPerRecord > 1
              && arity >= 2
              && runTuples > 1
              && end - i < (long) minRowsPerRecord * runTuples;
      if (rollUp) {
        int record = newRecord(keys[i] >>> positionBits);
        tuples[record * arity + arity - 1] = StarTree.ROLLED;
        for (int r = i; r < end; r++) {
          recordOf[(int) (keys[r] & positionMask)] = record;
        }
        rolledUp = true;
      } else {
        long previous = -1;
        int record = -1;
        for (int r = i; r < end; r++) {
          long tuple = keys[r] >>> positionBits;
          if (tuple != previous) {
            record = newRecord(tuple);
            previous = tuple;
          }
          recordOf[(int) (keys[r] & positionMask)] = record;
        }
      }
      i = end;
    }
    return recordOf;
  }

  /**
   * Phase two, over the rows in file order: each row's values go into its record. Reading the rows
   * in order (rather than in key order, a cache miss a row) is the point; the records written are
   * few once sparse runs are rolled up. A record's rows are added in file order, so a kept record
   * is exactly what a hash table collected; a rolled-up record's double sums add its rows in file
   * order too, where the merge of per-value records added per-value partial sums (they may differ
   * in the last bits; counts, integer sums, minima and maxima are equal).
   */
  private void sum(int[] recordOf, long[] rowValues, int rowWidth) {
    rows = new long[Math.max(1, records) * width];
    for (int row = 0; row < recordOf.length; row++) {
      aggregates.addPacked(rows, recordOf[row] * width, rowValues, row * rowWidth);
    }
  }

  private int newRecord(long tuple) {
    if ((records + 1) * arity > tuples.length) {
      tuples = Arrays.copyOf(tuples, tuples.length * 2);
    }
    int at = records * arity;
    for (int d = arity - 1; d >= 0; d--) {
      tuples[at + d] = (int) (tuple & ((1L << idBits[d]) - 1));
      tuple >>>= idBits[d];
    }
    return records++;
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
