package io.shelfmark.segment.startree;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * Builds the tree over a builder's records: sorts them in split order, rolls up the last
 * dimension's records where they hold fewer than {@code minRowsPerRecord} rows each (see {@link
 * StarTreeBuilder}), splits a node holding more than {@code maxLeafRecords} records on its next
 * dimension, and gives it (when that merges records: {@link #STAR_MAX_SHARE}) a star child whose
 * records are the node's records with that dimension aggregated away (appended after the others).
 * One use, not thread safe.
 */
final class StarTreeConstruction {
  /**
   * A star child is kept only when aggregating its dimension away leaves at most this share of the
   * node's records: below nearly unique dimensions (a one-second bucket of a busy table) it would
   * copy the node and double the tree for little.
   */
  static final double STAR_MAX_SHARE = 0.5;

  /**
   * A combination of the other dimensions' values holding at least this share of the tree's rows
   * keeps its last dimension's records however few rows each holds ({@code minRowsPerRecord} rolls
   * up only the smaller ones). The roll-up is meant for the long tail, whose rows are few to read;
   * a combination this large is what its rows would cost most to read (a tenth of the file's pages
   * of the aggregated columns, or more) and likely the series a dashboard asks for, and its records
   * cost at most its rows. At most ten combinations per file can qualify.
   */
  static final double KEEP_SHARE = 0.1;

  private final List<StarTreeDimension> dimensions;
  private Object[][] values;
  private boolean[] hasNull;
  private final Aggregates aggregates;
  private final int maxLeafRecords;
  private final int minRowsPerRecord;
  private final Set<Integer> skipStar;
  // Per dimension, the bits an id takes in a packed sort key (ids from ROLLED up, shifted to 0..).
  private final int[] idBits;
  private final int arity;
  private final int width;
  private int[] tuples;
  private long[] rows;
  private int records;
  private int[] nodeValue = new int[64];
  private int[] nodeStart = new int[64];
  private int[] nodeEnd = new int[64];
  private int[] nodeSplit = new int[64];
  private int[] nodeFirstChild = new int[64];
  private int[] nodeChildren = new int[64];
  private int nodes;

  StarTreeConstruction(
      List<StarTreeDimension> dimensions,
      Object[][] values,
      boolean[] hasNull,
      Aggregates aggregates,
      int maxLeafRecords,
      int minRowsPerRecord,
      Set<Integer> skipStar) {
    this.dimensions = dimensions;
    this.minRowsPerRecord = minRowsPerRecord;
    this.values = values;
    this.hasNull = hasNull;
    this.aggregates = aggregates;
    this.maxLeafRecords = maxLeafRecords;
    this.skipStar = skipStar;
    this.arity = dimensions.size();
    this.width = aggregates.width();
    this.idBits = new int[arity];
    for (int d = 0; d < arity; d++) {
      long span = (long) values[d].length + (hasNull[d] ? 1 : 0) - StarTree.ROLLED;
      idBits[d] = 64 - Long.numberOfLeadingZeros(span);
    }
  }

  StarTree construct(int[] tuples, long[] rows, int records) {
    this.tuples = tuples;
    this.rows = rows;
    this.records = records;
    sortRange(0, records, 0);
    if (rollUp()) {
      dropUnusedValues();
    }
    return buildTree();
  }

  private StarTree buildTree() {
    int root = newNode(StarTree.ROOT, 0, this.records);
    build(root, 0);
    byte[] sketchBytes = aggregates.sealSketches(this.rows, this.records);
    return new StarTree(
        dimensions,
        values,
        hasNull,
        aggregates,
        this.records,
        Arrays.copyOf(this.tuples, this.records * arity),
        Arrays.copyOf(this.rows, this.records * width),
        new StarTree.Nodes(
            Arrays.copyOf(nodeValue, nodes),
            Arrays.copyOf(nodeStart, nodes),
            Arrays.copyOf(nodeEnd, nodes),
            Arrays.copyOf(nodeSplit, nodes),
            Arrays.copyOf(nodeFirstChild, nodes),
            Arrays.copyOf(nodeChildren, nodes)),
        sketchBytes);
  }

  /**
   * {@link #construct} over records already sorted in split order and rolled up ({@link
   * SortedRecords}); {@code rolledUp} says whether any run was.
   */
  StarTree constructSorted(int[] tuples, long[] rows, int records, boolean rolledUp) {
    this.tuples = tuples;
    this.rows = rows;
    this.records = records;
    if (rolledUp) {
      dropUnusedValues();
    }
    return buildTree();
  }

  private void build(int node, int level) {
    int start = nodeStart[node];
    int end = nodeEnd[node];
    nodeSplit[node] = -1;
    // Never split on the last dimension: its records are unique there, so each child would hold
    // one record and cost a node as big as the record (a third of the part in a one-second tree);
    // a query scans the leaf's sorted records instead.
    if (level >= arity - 1 || end - start <= maxLeafRecords) {
      return;
    }
    int children = 0;
    for (int r = start; r < end; r++) {
      if (r == start || id(r, level) != id(r - 1, level)) {
        children++;
      }
    }
    boolean star = children > 1 && !skipStar.contains(level);
    int starStart = records;
    if (star) {
      for (int from = start; from < end; from++) {
        int to = append(from);
        tuples[to * arity + level] = StarTree.STAR;
      }
      sortRange(starStart, records, level + 1);
      records = starStart + mergeEqual(starStart, records, level + 1);
      if (records - starStart > STAR_MAX_SHARE * (end - start)) {
        // Aggregating this dimension away hardly merges records (the ones below it are nearly
        // unique): the star child would cost about as much as the node and save a query little.
        records = starStart;
        star = false;
      }
    }
    int starEnd = records;
    int first = nodes;
    // The children take consecutive slots, allocated before any grandchild.
    int r = start;
    while (r < end) {
      int value = id(r, level);
      int runEnd = r + 1;
      while (runEnd < end && id(runEnd, level) == value) {
        runEnd++;
      }
      newNode(value, r, runEnd);
      r = runEnd;
    }
    int starNode = star ? newNode(StarTree.STAR, starStart, starEnd) : -1;
    nodeSplit[node] = level;
    nodeFirstChild[node] = first;
    nodeChildren[node] = children + (star ? 1 : 0);
    for (int child = first; child < first + children; child++) {
      build(child, level + 1);
    }
    if (star) {
      build(starNode, level + 1);
    }
  }

  /**
   * Replaces each run of sorted records equal on all dimensions but the last whose records hold
   * fewer than {@code minRowsPerRecord} rows each on average, and which holds less than {@link
   * #KEEP_SHARE} of the rows, by one record with the last dimension {@link StarTree#ROLLED}. The
   * order stays sorted: the rolled-up record keeps its run's place.
   */
  private boolean rollUp() {
    if (minRowsPerRecord <= 1 || arity < 2) {
      return false;
    }
    int prefix = arity - 1;
    long total = 0;
    for (int i = 0; i < records; i++) {
      total += rows[i * width];
    }
    int out = 0;
    int r = 0;
    while (r < records) {
      int runEnd = r + 1;
      while (runEnd < records
          && Arrays.equals(
              tuples,
              r * arity,
              r * arity + prefix,
              tuples,
              runEnd * arity,
              runEnd * arity + prefix)) {
        runEnd++;
      }
      int run = runEnd - r;
      long rowCount = 0;
      for (int i = r; i < runEnd; i++) {
        rowCount += rows[i * width];
      }
      if (run > 1 && rowCount < (long) minRowsPerRecord * run && rowCount < KEEP_SHARE * total) {
        move(r, out);
        for (int i = r + 1; i < runEnd; i++) {
          aggregates.merge(rows, out * width, rows, i * width);
        }
        tuples[out * arity + prefix] = StarTree.ROLLED;
        out++;
      } else {
        for (int i = r; i < runEnd; i++) {
          move(i, out++);
        }
      }
      r = runEnd;
    }
    boolean rolled = out < records;
    records = out;
    return rolled;
  }

  /**
   * Leaves out the values no record holds any more (the last dimension's values of rolled-up
   * records, mostly: a file's every second would otherwise stay in the part), renumbering the ids
   * in the same order, so the records stay sorted.
   */
  private void dropUnusedValues() {
    for (int d = 0; d < arity; d++) {
      int idCount = values[d].length + (hasNull[d] ? 1 : 0);
      boolean[] used = new boolean[idCount];
      for (int r = 0; r < records; r++) {
        int id = tuples[r * arity + d];
        if (id >= 0) {
          used[id] = true;
        }
      }
      int[] renumber = new int[idCount];
      int kept = 0;
      for (int id = 0; id < values[d].length; id++) {
        renumber[id] = used[id] ? kept++ : -1;
      }
      if (kept == values[d].length && (!hasNull[d] || used[values[d].length])) {
        continue;
      }
      Object[] keptValues = new Object[kept];
      for (int id = 0; id < values[d].length; id++) {
        if (used[id]) {
          keptValues[renumber[id]] = values[d][id];
        }
      }
      if (hasNull[d]) {
        renumber[values[d].length] = kept; // the null id follows the values, as before
        hasNull[d] = used[values[d].length];
      }
      values[d] = keptValues;
      for (int r = 0; r < records; r++) {
        int at = r * arity + d;
        if (tuples[at] >= 0) {
          tuples[at] = renumber[tuples[at]];
        }
      }
    }
  }

  private void move(int from, int to) {
    if (from != to) {
      System.arraycopy(tuples, from * arity, tuples, to * arity, arity);
      System.arraycopy(rows, from * width, rows, to * width, width);
    }
  }

  private int id(int record, int dimension) {
    return tuples[record * arity + dimension];
  }

  private int append(int from) {
    int to = records++;
    if (records * arity > tuples.length) {
      tuples = Arrays.copyOf(tuples, Math.max(records * arity, tuples.length * 2));
    }
    if (records * width > rows.length) {
      rows = Arrays.copyOf(rows, Math.max(records * width, rows.length * 2));
    }
    System.arraycopy(tuples, from * arity, tuples, to * arity, arity);
    System.arraycopy(rows, from * width, rows, to * width, width);
    if (!aggregates.sketches().isEmpty()) {
      aggregates.copySketches(rows, to * width); // the star record is merged into; the node's not
    }
    return to;
  }

  /** Merges runs of records equal on dimensions {@code fromDimension..}; returns the count left. */
  private int mergeEqual(int start, int end, int fromDimension) {
    int out = start;
    for (int r = start + 1; r < end; r++) {
      if (Arrays.equals(
          tuples,
          out * arity + fromDimension,
          (out + 1) * arity,
          tuples,
          r * arity + fromDimension,
          (r + 1) * arity)) {
        aggregates.merge(rows, out * width, rows, r * width);
      } else {
        out++;
        if (out != r) {
          System.arraycopy(tuples, r * arity, tuples, out * arity, arity);
          System.arraycopy(rows, r * width, rows, out * width, width);
        }
      }
    }
    return end > start ? out - start + 1 : 0;
  }

  /** Sorts records {@code [start, end)} by dimensions {@code fromDimension..} in split order. */
  private void sortRange(int start, int end, int fromDimension) {
    int n = end - start;
    if (n < 2 || fromDimension >= arity) {
      return;
    }
    int[] order = packedOrder(start, n, fromDimension);
    if (order == null) {
      order = comparedOrder(start, n, fromDimension);
    }
    int[] sortedTuples = new int[n * arity];
    long[] sortedRows = new long[n * width];
    for (int i = 0; i < n; i++) {
      System.arraycopy(tuples, order[i] * arity, sortedTuples, i * arity, arity);
      System.arraycopy(rows, order[i] * width, sortedRows, i * width, width);
    }
    System.arraycopy(sortedTuples, 0, tuples, start * arity, n * arity);
    System.arraycopy(sortedRows, 0, rows, start * width, n * width);
  }

  /**
   * The records' order from one primitive sort of longs, each the ids packed in split order above
   * the record's position; null when they do not fit in 63 bits (then {@link #comparedOrder}).
   */
  private int[] packedOrder(int start, int n, int fromDimension) {
    int positionBits = 32 - Integer.numberOfLeadingZeros(n - 1);
    int bits = positionBits;
    for (int d = fromDimension; d < arity; d++) {
      bits += idBits[d];
    }
    if (bits > 63) {
      return null;
    }
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      int at = (start + i) * arity;
      long key = 0;
      for (int d = fromDimension; d < arity; d++) {
        key = (key << idBits[d]) | (tuples[at + d] - StarTree.ROLLED);
      }
      keys[i] = (key << positionBits) | i;
    }
    Arrays.sort(keys);
    long mask = (1L << positionBits) - 1;
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = start + (int) (keys[i] & mask);
    }
    return order;
  }

  private int[] comparedOrder(int start, int n, int fromDimension) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = start + i;
    }
    Arrays.sort(
        order,
        (a, b) ->
            Arrays.compare(
                tuples,
                a * arity + fromDimension,
                (a + 1) * arity,
                tuples,
                b * arity + fromDimension,
                (b + 1) * arity));
    int[] result = new int[n];
    for (int i = 0; i < n; i++) {
      result[i] = order[i];
    }
    return result;
  }

  private int newNode(int value, int start, int end) {
    if (nodes == nodeValue.length) {
      int size = nodes * 2;
      nodeValue = Arrays.copyOf(nodeValue, size);
      nodeStart = Arrays.copyOf(nodeStart, size);
      nodeEnd = Arrays.copyOf(nodeEnd, size);
      nodeSplit = Arrays.copyOf(nodeSplit, size);
      nodeFirstChild = Arrays.copyOf(nodeFirstChild, size);
      nodeChildren = Arrays.copyOf(nodeChildren, size);
    }
    nodeValue[nodes] = value;
    nodeStart[nodes] = start;
    nodeEnd[nodes] = end;
    nodeSplit[nodes] = -1;
    return nodes++;
  }
}
