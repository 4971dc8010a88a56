package io.shelfmark.parquet.plan;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import org.roaringbitmap.RoaringBitmap;

/**
 * The rows of one Parquet data file to read: every row, or the row ordinals (0-based positions in
 * the file, across row groups) held in a {@link RoaringBitmap}. Immutable and thread safe: the
 * bitmap is copied on construction.
 *
 * <p>The reader narrows a file selection in two steps: {@link #inRowGroup} gives the rows of one
 * row group (relative to its first row), and {@link InRowGroup#inPage} gives the rows of one page,
 * which is what {@code ColumnChunkDecoder.readDataPage} receives.
 *
 * <pre>{@code
 * RowSelection selection = RowSelection.of(RoaringBitmap.bitmapOf(3, 70_000, 70_001));
 * RowSelection.InRowGroup group = selection.inRowGroup(65_536, 65_536); // rows 4464, 4465
 * RowSelection.InPage page = group.inPage(4_000, 1_000);                // both rows again
 * }</pre>
 */
public final class RowSelection {
  private static final RowSelection ALL = new RowSelection(null);

  private final RoaringBitmap rows; // null means every row

  private RowSelection(RoaringBitmap rows) {
    this.rows = rows;
  }

  /** Every row of the file. */
  public static RowSelection all() {
    return ALL;
  }

  /** The rows whose ordinals are in {@code rows} (copied). Ordinals past the file's end fail. */
  public static RowSelection of(RoaringBitmap rows) {
    requireNonNull(rows, "rows is null");
    RoaringBitmap copy = rows.clone();
    copy.runOptimize();
    return new RowSelection(copy);
  }

  /** Whether every row is selected. */
  public boolean isAll() {
    return rows == null;
  }

  /** The number of selected rows in a file of {@code fileRowCount} rows. */
  public long cardinality(long fileRowCount) {
    return rows == null ? fileRowCount : rows.getLongCardinality();
  }

  /**
   * Checks that every selected ordinal lies inside a file of {@code fileRowCount} rows.
   *
   * @throws IllegalArgumentException when the selection names a row past the end of the file
   */
  public void checkWithin(long fileRowCount, String file) {
    if (rows != null && !rows.isEmpty() && Integer.toUnsignedLong(rows.last()) >= fileRowCount) {
      throw new IllegalArgumentException(
          "Cannot select row "
              + Integer.toUnsignedLong(rows.last())
              + " of "
              + file
              + ": the file has "
              + fileRowCount
              + " rows (row ordinals are 0-based positions in the file)");
    }
  }

  /**
   * The number of selected rows in file rows {@code [firstRow, firstRow + rowCount)}, counted
   * without listing them.
   */
  public long countIn(long firstRow, long rowCount) {
    if (rowCount <= 0) {
      return 0;
    }
    if (rows == null) {
      return rowCount;
    }
    long from = Math.min(firstRow, 1L << 32);
    long to = Math.min(firstRow + rowCount, 1L << 32);
    return from < to ? rows.rangeCardinality(from, to) : 0;
  }

  /** Whether any selected row lies in file rows {@code [firstRow, firstRow + rowCount)}. */
  public boolean intersects(long firstRow, long rowCount) {
    if (rowCount <= 0) {
      return false;
    }
    if (rows == null) {
      return true;
    }
    long from = Math.min(firstRow, 1L << 32);
    long to = Math.min(firstRow + rowCount, 1L << 32);
    return from < to && rows.intersects(from, to);
  }

  /**
   * The selected rows of the row group covering file rows {@code [firstRow, firstRow + rowCount)},
   * as ordinals relative to the row group's first row.
   */
  public InRowGroup inRowGroup(long firstRow, long rowCount) {
    if (firstRow < 0 || rowCount < 0 || rowCount > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "Cannot select rows of row group: first row " + firstRow + ", row count " + rowCount);
    }
    if (rows == null) {
      return new InRowGroup((int) rowCount, null);
    }
    long end = firstRow + rowCount;
    // Roaring orders ints as unsigned; ordinals of a file below 2^32 rows map one to one.
    long from = Math.min(firstRow, 1L << 32);
    long to = Math.min(end, 1L << 32);
    int count = (int) rows.rangeCardinality(from, to);
    int[] relative = new int[count];
    if (count > 0) {
      // A batch iterator fills an array per container: much cheaper than an int at a time.
      var iterator = rows.getBatchIterator();
      iterator.advanceIfNeeded((int) from);
      int[] batch = new int[Math.min(count, 4096)];
      int filled = 0;
      while (filled < count) {
        int n = Math.min(iterator.nextBatch(batch), count - filled);
        if (n == 0) {
          throw new IllegalStateException(
              "Cannot list rows of row group: %d of %d found".formatted(filled, count));
        }
        for (int i = 0; i < n; i++) {
          relative[filled + i] = (int) (Integer.toUnsignedLong(batch[i]) - firstRow);
        }
        filled += n;
      }
    }
    return new InRowGroup((int) rowCount, relative);
  }

  @Override
  public String toString() {
    return rows == null
        ? "RowSelection[all]"
        : "RowSelection[" + rows.getLongCardinality() + " rows]";
  }

  /**
   * The selected rows of one row group, relative to its first row, ascending. Immutable.
   *
   * <p>A row group is skipped when {@link #isEmpty()}, scanned whole when {@link #isAll()}, and
   * otherwise read page by page for the rows in {@link #inPage}.
   */
  public static final class InRowGroup {
    private final int rowCount;
    private final int[] rows; // null means every row; otherwise sorted, relative, < rowCount

    InRowGroup(int rowCount, int[] rows) {
      this.rowCount = rowCount;
      this.rows = rows;
    }

    /** Every row of a row group of {@code rowCount} rows. */
    public static InRowGroup all(int rowCount) {
      return new InRowGroup(rowCount, null);
    }

    /** The rows in {@code rows} (ascending, distinct, relative to the row group; copied). */
    public static InRowGroup of(int rowCount, int[] rows) {
      int[] copy = rows.clone();
      for (int i = 0; i < copy.length; i++) {
        if (copy[i] < 0 || copy[i] >= rowCount || (i > 0 && copy[i] <= copy[i - 1])) {
          throw new IllegalArgumentException(
              "Cannot select rows of a row group of "
                  + rowCount
                  + " rows: rows must be ascending, distinct and in [0, rowCount), found "
                  + copy[i]
                  + " at position "
                  + i);
        }
      }
      return new InRowGroup(rowCount, copy);
    }

    /** The number of rows in the row group. */
    public int rowCount() {
      return rowCount;
    }

    /** Whether every row of the row group is selected. */
    public boolean isAll() {
      return rows == null || rows.length == rowCount;
    }

    /** Whether no row of the row group is selected. */
    public boolean isEmpty() {
      return rowCount == 0 || (rows != null && rows.length == 0);
    }

    /** The number of selected rows. */
    public int size() {
      return rows == null ? rowCount : rows.length;
    }

    /** Whether a selected row lies in {@code [firstRow, firstRow + count)}. */
    public boolean intersects(long firstRow, long count) {
      if (count <= 0 || firstRow >= rowCount) {
        return false;
      }
      if (rows == null) {
        return true;
      }
      int index = lowerBound(rows, firstRow);
      return index < rows.length && rows[index] < firstRow + count;
    }

    /**
     * The selected rows of the page holding row-group rows {@code [firstRow, firstRow + count)}.
     * The result shares this selection's array; no copy is made.
     */
    public InPage inPage(long firstRow, int count) {
      if (firstRow < 0 || count < 0 || firstRow + count > rowCount) {
        throw new IllegalArgumentException(
            "Cannot select rows of page: rows ["
                + firstRow
                + ", "
                + (firstRow + count)
                + ") are not inside a row group of "
                + rowCount
                + " rows");
      }
      if (rows == null) {
        return new InPage((int) firstRow, count, null, 0, count);
      }
      int from = lowerBound(rows, firstRow);
      int to = lowerBound(rows, firstRow + count);
      if (to - from == count) {
        return new InPage((int) firstRow, count, null, 0, count);
      }
      return new InPage((int) firstRow, count, rows, from, to);
    }

    /** The selected rows as a new array (every row when {@link #isAll()}). */
    public int[] toArray() {
      if (rows != null) {
        return rows.clone();
      }
      int[] all = new int[rowCount];
      for (int i = 0; i < rowCount; i++) {
        all[i] = i;
      }
      return all;
    }

    private static int lowerBound(int[] sorted, long value) {
      int low = 0;
      int high = sorted.length;
      while (low < high) {
        int mid = (low + high) >>> 1;
        if (sorted[mid] < value) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      return low;
    }

    @Override
    public String toString() {
      return "InRowGroup[" + size() + " of " + rowCount + " rows]";
    }
  }

  /**
   * The selected rows of one data page: every row, or an ascending run of row ordinals relative to
   * the <em>row group</em> (not the page), all inside {@code [firstRow, firstRow + rowCount)}.
   * Immutable. Iterate with {@code for (int i = 0; i < size(); i++) row(i)}: no allocation.
   */
  public static final class InPage {
    private final int firstRow;
    private final int rowCount;
    private final int[] rows; // null means every row of the page
    private final int from;
    private final int to;

    InPage(int firstRow, int rowCount, int[] rows, int from, int to) {
      this.firstRow = firstRow;
      this.rowCount = rowCount;
      this.rows = rows;
      this.from = from;
      this.to = to;
    }

    /** Every row of a page whose rows are {@code [firstRow, firstRow + rowCount)}. */
    public static InPage all(int firstRow, int rowCount) {
      return new InPage(firstRow, rowCount, null, 0, rowCount);
    }

    /** Whether every row of the page is selected. */
    public boolean isAll() {
      return rows == null;
    }

    /** The page's first row, relative to the row group. */
    public int firstRow() {
      return firstRow;
    }

    /** The number of rows the page holds according to the page locations. */
    public int rowCount() {
      return rowCount;
    }

    /** The number of selected rows. */
    public int size() {
      return to - from;
    }

    /** The {@code index}-th selected row, relative to the row group; ascending in index. */
    public int row(int index) {
      if (index < 0 || index >= to - from) {
        throw new IndexOutOfBoundsException(
            "Cannot read selected row " + index + ": the page has " + (to - from));
      }
      return rows == null ? firstRow + index : rows[from + index];
    }

    /** The selected rows, relative to the row group, as a new array. */
    public int[] toArray() {
      if (rows != null) {
        return Arrays.copyOfRange(rows, from, to);
      }
      int[] all = new int[rowCount];
      for (int i = 0; i < rowCount; i++) {
        all[i] = firstRow + i;
      }
      return all;
    }

    @Override
    public String toString() {
      return "InPage[rows "
          + firstRow
          + ".."
          + (firstRow + rowCount)
          + ", "
          + (rows == null ? "all" : size() + " selected")
          + "]";
    }
  }
}
