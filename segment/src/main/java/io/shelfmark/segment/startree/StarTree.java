package io.shelfmark.segment.startree;

import static java.util.Objects.requireNonNull;

import io.shelfmark.segment.format.CorruptSegmentException;
import io.shelfmark.segment.format.PartReader;
import io.shelfmark.segment.format.PartWriter;
import io.shelfmark.segment.spi.ValueType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.datasketches.hll.HllSketch;

/**
 * A sealed star-tree: records (a dimension tuple with its aggregates), sorted in split order, and
 * the nodes over them. Built by {@link StarTreeBuilder}, written with {@link #serialize()}, read
 * with {@link #parse}; see the package docs for the layout. Immutable and thread safe.
 */
public final class StarTree {
  /**
   * The newest part layout version, which this reader reads with every older one down to {@link
   * #OLDEST_VERSION}. Version 2 added rolled-up records ({@link #ROLLED}); version 3 added sketch
   * columns ({@link StarTreeSketch}). A tree without sketch columns is still written as version 2,
   * byte for byte as before, so that adding sketches changed no other segment ({@link #version}).
   */
  public static final int VERSION = 3;

  /** The oldest layout this reader reads (version 1 parts are skipped: their segments rebuilt). */
  public static final int OLDEST_VERSION = 2;

  /** The sketches' HLL family id and where the compact form's preamble holds it and lgK. */
  private static final int HLL_FAMILY_ID = 7;

  private static final int MAX_SKETCHES = 64;

  /** The id of a star node's value and of an aggregated-away dimension in its records. */
  static final int STAR = -1;

  static final int ROOT = -2;

  /**
   * The last dimension's id in a rolled-up record: the record aggregates every value of the last
   * dimension for its other dimensions' values, because those rows were too sparse for per-value
   * records to pay (see {@link StarTreeBuilder}'s {@code minRowsPerRecord}). A query that filters
   * or groups by the last dimension cannot use such a record: {@link #answers} says so.
   */
  static final int ROLLED = -3;

  private static final int MAX_DIMENSIONS = 64;
  private static final int MAX_METRICS = 1024;

  /** The nodes, as parallel arrays: node 0 is the root. */
  record Nodes(int[] value, int[] start, int[] end, int[] split, int[] firstChild, int[] children) {
    int count() {
      return value.length;
    }
  }

  private final List<StarTreeDimension> dimensions;
  private final Object[][] values;
  private final boolean[] hasNull;
  private final Aggregates aggregates;
  private final int records;
  private final int[] tuples;
  private final long[] rows;
  private final Nodes nodes;
  private final int arity;
  private final int width;
  private final int rolledUp;
  // The records' sketches in their compact form, back to back; a record's slot says where.
  private final byte[] sketchBytes;

  StarTree(
      List<StarTreeDimension> dimensions,
      Object[][] values,
      boolean[] hasNull,
      Aggregates aggregates,
      int records,
      int[] tuples,
      long[] rows,
      Nodes nodes,
      byte[] sketchBytes) {
    this.sketchBytes = sketchBytes;
    this.dimensions = List.copyOf(dimensions);
    this.values = values;
    this.hasNull = hasNull;
    this.aggregates = aggregates;
    this.records = records;
    this.tuples = tuples;
    this.rows = rows;
    this.nodes = nodes;
    this.arity = dimensions.size();
    this.width = aggregates.width();
    int rolled = 0;
    for (int r = 0; r < records; r++) {
      if (tuples[r * arity + arity - 1] == ROLLED) {
        rolled++;
      }
    }
    this.rolledUp = rolled;
  }

  public List<StarTreeDimension> dimensions() {
    return dimensions;
  }

  public List<StarTreeMetric> metrics() {
    return aggregates.metrics();
  }

  /** The index of the dimension named {@code name}, if the tree has it. */
  public Optional<Integer> dimension(String name) {
    for (int d = 0; d < arity; d++) {
      if (dimensions.get(d).name().equals(name)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  /** The index of the metric over {@code column}, if the tree has it. */
  public Optional<Integer> metric(String column) {
    List<StarTreeMetric> metrics = aggregates.metrics();
    for (int m = 0; m < metrics.size(); m++) {
      if (metrics.get(m).column().equals(column)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  public List<StarTreeSketch> sketches() {
    return aggregates.sketches();
  }

  /** The index of the sketch column over {@code column}, if the tree has one. */
  public Optional<Integer> sketch(String column) {
    List<StarTreeSketch> sketches = aggregates.sketches();
    for (int s = 0; s < sketches.size(); s++) {
      if (sketches.get(s).column().equals(column)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }

  /** The layout version {@link #serialize} writes: 2 without sketch columns, else 3. */
  public int version() {
    return layoutVersion(!aggregates.sketches().isEmpty());
  }

  /**
   * The layout version of a tree with or without sketch columns (the spec fingerprint names it).
   */
  public static int layoutVersion(boolean sketches) {
    return sketches ? VERSION : OLDEST_VERSION;
  }

  /**
   * A record's sketch of a sketch column, or null when the record's rows hold no non-null value of
   * it. The sketch is a read-only view of the tree's bytes (union it; do not update it).
   */
  public HllSketch sketch(int record, int sketch) {
    long slot = rows[record * width + aggregates.sketchOffset(sketch)];
    int length = (int) slot;
    if (length == 0) {
      return null;
    }
    return HllSketch.wrap(MemorySegment.ofArray(sketchBytes).asSlice(slot >>> 32, length));
  }

  /** A sealed record's sketch slot: where its bytes are in the tree's sketch bytes. */
  static long sketchSlot(int offset, int length) {
    return ((long) offset << 32) | length;
  }

  /** Records, star records included. */
  public int recordCount() {
    return records;
  }

  /** Records rolled up on the last dimension (see {@link #answers}). */
  public int rolledUpRecordCount() {
    return rolledUp;
  }

  /** Records under star nodes: those with a dimension aggregated away. */
  public int starRecordCount() {
    int star = 0;
    for (int r = 0; r < records; r++) {
      for (int d = 0; d < arity; d++) {
        if (tuples[r * arity + d] == STAR) {
          star++;
          break;
        }
      }
    }
    return star;
  }

  public int nodeCount() {
    return nodes.count();
  }

  /** Ids of a dimension's values: {@code 0..valueCount-1}, then the null id when it has one. */
  public int idCount(int dimension) {
    return values[dimension].length + (hasNull[dimension] ? 1 : 0);
  }

  /**
   * Ids of a dimension's non-null values: {@code 0..valueCount-1}, in ascending value order for a
   * LONG dimension (the part's reader checks it).
   */
  public int valueCount(int dimension) {
    return values[dimension].length;
  }

  /** The value of id {@code id}: a Long, Double or String, or null for the null id. */
  public Object value(int dimension, int id) {
    return id < values[dimension].length ? values[dimension][id] : null;
  }

  /** A record's id for a dimension (never star for a dimension the traversal constrained). */
  public int id(int record, int dimension) {
    return tuples[record * arity + dimension];
  }

  public long count(int record) {
    return rows[record * width];
  }

  public long nonNull(int record, int metric) {
    return rows[record * width + aggregates.offset(metric)];
  }

  /** A LONG metric's 128-bit sum: its high word. */
  public long sumHigh(int record, int metric) {
    return rows[record * width + aggregates.offset(metric) + 1];
  }

  /** A LONG metric's 128-bit sum: its low word, unsigned. */
  public long sumLow(int record, int metric) {
    return rows[record * width + aggregates.offset(metric) + 2];
  }

  public long longMin(int record, int metric) {
    return rows[record * width + aggregates.offset(metric) + 3];
  }

  public long longMax(int record, int metric) {
    return rows[record * width + aggregates.offset(metric) + 4];
  }

  public double doubleSum(int record, int metric) {
    return Double.longBitsToDouble(rows[record * width + aggregates.offset(metric) + 1]);
  }

  public double doubleMin(int record, int metric) {
    return Double.longBitsToDouble(rows[record * width + aggregates.offset(metric) + 2]);
  }

  public double doubleMax(int record, int metric) {
    return Double.longBitsToDouble(rows[record * width + aggregates.offset(metric) + 3]);
  }

  /** Receives the records a traversal selects. */
  @FunctionalInterface
  public interface RecordVisitor {
    void record(int record);
  }

  /**
   * Whether {@link #traverse} can answer these constraints and groupings: false when a record or
   * node it would visit is rolled up ({@link #ROLLED}) on the last dimension while the query
   * constrains or groups by that dimension (those rows have no per-value record). Cheap when the
   * query leaves the last dimension alone or the tree has no rolled-up record.
   */
  public boolean answers(boolean[][] allowed, boolean[] grouped) {
    checkShape(allowed, grouped);
    int last = arity - 1;
    if (rolledUp == 0 || (allowed[last] == null && !grouped[last])) {
      return true;
    }
    return visit(0, allowed, grouped, lastIds(allowed), null) >= 0;
  }

  /**
   * Visits the records that together aggregate exactly the rows matching the constraints, each row
   * counted once, with every grouped and constrained dimension holding a real value (never star).
   * Call {@link #answers} first: a traversal that meets a rolled-up record it cannot use fails.
   *
   * @param allowed per dimension, null for unconstrained, else which ids match (indexed by id, the
   *     null id included)
   * @param grouped per dimension, whether the query groups by it
   * @return records visited, for statistics
   * @throws IllegalStateException when {@link #answers} is false for these arguments
   */
  public long traverse(boolean[][] allowed, boolean[] grouped, RecordVisitor visitor) {
    requireNonNull(visitor, "visitor is null");
    checkShape(allowed, grouped);
    long visited = visit(0, allowed, grouped, lastIds(allowed), visitor);
    if (visited < 0) {
      throw new IllegalStateException(
          "Cannot traverse star-tree: a rolled-up record of dimension %s is needed (check answers())"
              .formatted(dimensions.get(arity - 1).name()));
    }
    return visited;
  }

  /**
   * {@link #traverse} without asking {@link #answers} first: visits the records as it does and
   * returns how many, or -1 as soon as it meets a rolled-up record it cannot use (the visitor has
   * then seen some records: the caller discards what it gathered). One pass where {@code answers}
   * then {@code traverse} make two.
   */
  public long traverseIfAnswers(boolean[][] allowed, boolean[] grouped, RecordVisitor visitor) {
    requireNonNull(visitor, "visitor is null");
    checkShape(allowed, grouped);
    return visit(0, allowed, grouped, lastIds(allowed), visitor);
  }

  private void checkShape(boolean[][] allowed, boolean[] grouped) {
    if (allowed.length != arity || grouped.length != arity) {
      throw new IllegalArgumentException(
          "Cannot traverse a star-tree of %d dimensions with %d constraints and %d groupings"
              .formatted(arity, allowed.length, grouped.length));
    }
  }

  /**
   * Records visited under {@code node}, or -1 when a rolled-up one is needed (then it stops); a
   * null visitor only checks.
   */
  private long visit(
      int node, boolean[][] allowed, boolean[] grouped, int[] lastIds, RecordVisitor visitor) {
    int split = nodes.split()[node];
    if (split < 0) {
      long visited = 0;
      int start = nodes.start()[node];
      int end = nodes.end()[node];
      if (lastIds != null
          && end - start > 1
          && tuples[start * arity + arity - 1] >= 0
          && sharePrefix(start, end - 1)) {
        // One combination of the other dimensions' values (a leaf below the last split): its
        // records are sorted by the last dimension's id, so the allowed ids' span is found by
        // binary search instead of testing every record (a day of one-second buckets is 86,400
        // records; an hour's query needs 3,600 of them). Not when the first record is rolled up
        // (ROLLED sorts first): a star leaf can hold a rolled-up record beside per-value ones, and
        // the traversal must meet it to refuse.
        int from = firstAtLeast(start, end, lastIds[0]);
        end = firstAtLeast(from, end, lastIds[1] + 1);
        start = from;
      }
      for (int r = start; r < end; r++) {
        int passes = passes(r, allowed, grouped);
        if (passes < 0) {
          return -1;
        }
        if (passes > 0) {
          if (visitor != null) {
            visitor.record(r);
          }
          visited++;
        }
      }
      return visited;
    }
    int first = nodes.firstChild()[node];
    int last = first + nodes.children()[node] - 1;
    boolean hasStar = nodes.value()[last] == STAR;
    if (allowed[split] == null && !grouped[split] && hasStar) {
      return visit(last, allowed, grouped, lastIds, visitor);
    }
    long visited = 0;
    int end = hasStar ? last : last + 1;
    for (int child = first; child < end; child++) {
      int value = nodes.value()[child];
      if (value == ROLLED) {
        if (allowed[split] != null || grouped[split]) {
          return -1;
        }
      } else if (allowed[split] != null && !allowed[split][value]) {
        continue;
      }
      long below = visit(child, allowed, grouped, lastIds, visitor);
      if (below < 0) {
        return -1;
      }
      visited += below;
    }
    return visited;
  }

  /**
   * The lowest and highest id the last dimension's constraint allows ({@code {n, -1}} when none),
   * or null when it is unconstrained.
   */
  private int[] lastIds(boolean[][] allowed) {
    boolean[] ids = allowed[arity - 1];
    if (ids == null) {
      return null;
    }
    int low = 0;
    while (low < ids.length && !ids[low]) {
      low++;
    }
    int high = ids.length - 1;
    while (high >= 0 && !ids[high]) {
      high--;
    }
    return new int[] {low, high};
  }

  /** Whether records {@code a} and {@code b} hold the same ids on every dimension but the last. */
  private boolean sharePrefix(int a, int b) {
    return java.util.Arrays.equals(
        tuples, a * arity, a * arity + arity - 1, tuples, b * arity, b * arity + arity - 1);
  }

  /**
   * The first record in {@code [from, to)} whose last dimension's id is at least {@code id}; the
   * records there share their other dimensions, so they are sorted by that id.
   */
  private int firstAtLeast(int from, int to, int id) {
    int low = from;
    int high = to;
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (tuples[mid * arity + arity - 1] < id) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  /** 1 when the record matches, 0 when not, -1 when it is rolled up where the query looks. */
  private int passes(int record, boolean[][] allowed, boolean[] grouped) {
    int at = record * arity;
    int last = arity - 1;
    boolean rolled = tuples[at + last] == ROLLED;
    // The other dimensions first: a rolled-up record of a combination the filter leaves out (a leaf
    // holding several resolutions of a metric, say) does not stop the tree from answering.
    for (int d = 0; d < arity; d++) {
      if (allowed[d] != null && !(rolled && d == last)) {
        int id = tuples[at + d];
        if (id < 0) {
          throw new IllegalStateException(
              "Cannot filter star-tree record " + record + ": dimension " + d + " is star");
        }
        if (!allowed[d][id]) {
          return 0;
        }
      }
    }
    return rolled && (allowed[last] != null || grouped[last]) ? -1 : 1;
  }

  /** The part's bytes. */
  public byte[] serialize() {
    PartWriter out = new PartWriter(64 + records * (arity + width * 3));
    out.putVarInt(arity);
    for (int d = 0; d < arity; d++) {
      StarTreeDimension dimension = dimensions.get(d);
      out.putString(dimension.name());
      out.putByte(dimension.type().code());
      out.putVarInt(values[d].length);
      out.putByte(hasNull[d] ? 1 : 0);
      long previous = 0;
      for (Object value : values[d]) {
        switch (dimension.type()) {
          case LONG -> {
            // Sorted: each value as its difference from the previous (time buckets: their width).
            long current = (Long) value;
            out.putZigZag(current - previous);
            previous = current;
          }
          case DOUBLE -> out.putDouble((Double) value);
          case STRING -> out.putString((String) value);
        }
      }
    }
    List<StarTreeMetric> metrics = aggregates.metrics();
    out.putVarInt(metrics.size());
    for (StarTreeMetric metric : metrics) {
      out.putString(metric.column());
      out.putByte(metric.type().code());
      out.putByte(metric.extremes() ? 1 : 0);
    }
    List<StarTreeSketch> sketches = aggregates.sketches();
    if (!sketches.isEmpty()) {
      out.putVarInt(sketches.size());
      for (StarTreeSketch sketch : sketches) {
        out.putString(sketch.column());
        out.putByte(sketch.type().code());
        out.putByte(sketch.lgK());
      }
    }
    out.putVarInt(records);
    for (int d = 0; d < arity; d++) {
      int star = values[d].length + 1;
      for (int r = 0; r < records; r++) {
        int id = tuples[r * arity + d];
        out.putVarInt(id == STAR ? star : id == ROLLED ? star + 1 : id);
      }
    }
    for (int r = 0; r < records; r++) {
      out.putVarLong(rows[r * width]);
    }
    for (int m = 0; m < metrics.size(); m++) {
      int offset = aggregates.offset(m);
      for (int r = 0; r < records; r++) {
        int at = r * width + offset;
        out.putVarLong(rows[at]);
        int slots = aggregates.metrics().get(m).width();
        if (aggregates.isLong(m)) {
          for (int slot = 1; slot < slots; slot++) {
            out.putZigZag(rows[at + slot]);
          }
        } else {
          for (int slot = 1; slot < slots; slot++) {
            out.putLong(rows[at + slot]);
          }
        }
      }
    }
    for (int k = 0; k < sketches.size(); k++) {
      int offset = aggregates.sketchOffset(k);
      for (int r = 0; r < records; r++) {
        long slot = rows[r * width + offset];
        out.putVarInt((int) slot);
        out.putBytes(sketchBytes, (int) (slot >>> 32), (int) slot);
      }
    }
    out.putVarInt(nodes.count());
    for (int n = 0; n < nodes.count(); n++) {
      out.putZigZag(nodes.value()[n]);
      out.putVarInt(nodes.start()[n]);
      out.putVarInt(nodes.end()[n]);
      out.putZigZag(nodes.split()[n]);
      out.putVarInt(nodes.firstChild()[n]);
      out.putVarInt(nodes.children()[n]);
    }
    return out.toByteArray();
  }

  /**
   * Reads a part written by {@link #serialize()} in layout {@code version} ({@link #OLDEST_VERSION}
   * to {@link #VERSION}), checking every count and reference.
   */
  public static StarTree parse(PartReader in, int version) throws CorruptSegmentException {
    if (version < OLDEST_VERSION || version > VERSION) {
      throw new IllegalArgumentException(
          "Cannot parse star-tree layout version %d (this reader reads %d to %d)"
              .formatted(version, OLDEST_VERSION, VERSION));
    }
    int arity = in.getCount(MAX_DIMENSIONS, "star-tree dimensions");
    if (arity == 0) {
      throw in.corrupt("a star-tree without dimensions");
    }
    List<StarTreeDimension> dimensions = new ArrayList<>();
    Object[][] values = new Object[arity][];
    boolean[] hasNull = new boolean[arity];
    for (int d = 0; d < arity; d++) {
      String name = in.getString();
      ValueType type = type(in);
      int count = in.getCount(in.remaining(), "star-tree dimension values");
      hasNull[d] = in.getByte() != 0;
      values[d] = new Object[count];
      long previous = 0;
      for (int i = 0; i < count; i++) {
        if (type == ValueType.LONG) {
          // Differences wrap like the writer's, so the sum is exact even across the whole range.
          long next = previous + in.getZigZag();
          if (i > 0 && next <= previous) {
            throw in.corrupt(
                "star-tree dimension %s's value %d (%d) is not above the previous one (%d)"
                    .formatted(name, i, next, previous));
          }
          previous = next;
          values[d][i] = next;
        } else {
          values[d][i] = type == ValueType.DOUBLE ? in.getDouble() : in.getString();
        }
      }
      dimensions.add(new StarTreeDimension(name, type));
    }
    int metricCount = in.getCount(MAX_METRICS, "star-tree metrics");
    List<StarTreeMetric> metrics = new ArrayList<>();
    for (int m = 0; m < metricCount; m++) {
      String column = in.getString();
      ValueType type = type(in);
      if (type == ValueType.STRING) {
        throw in.corrupt("star-tree metric " + column + " is a string");
      }
      metrics.add(new StarTreeMetric(column, type, in.getByte() != 0));
    }
    List<StarTreeSketch> sketches = version >= 3 ? parseSketchColumns(in) : List.of();
    Aggregates aggregates = new Aggregates(metrics, sketches);
    int width = aggregates.width();
    int records = in.getCount(in.remaining(), "star-tree records");
    int[] tuples = new int[records * arity];
    for (int d = 0; d < arity; d++) {
      int star = values[d].length + 1;
      int limit = values[d].length + (hasNull[d] ? 1 : 0);
      for (int r = 0; r < records; r++) {
        int id = in.getVarInt();
        if (id == star) {
          id = STAR;
        } else if (id == star + 1 && d == arity - 1) {
          id = ROLLED;
        } else if (id < 0 || id >= limit) {
          throw in.corrupt("star-tree record %d has id %d for dimension %d".formatted(r, id, d));
        }
        tuples[r * arity + d] = id;
      }
    }
    long[] rows = new long[records * width];
    for (int r = 0; r < records; r++) {
      rows[r * width] = in.getVarLong();
    }
    for (int m = 0; m < metrics.size(); m++) {
      int offset = aggregates.offset(m);
      for (int r = 0; r < records; r++) {
        int at = r * width + offset;
        rows[at] = in.getVarLong();
        int slots = metrics.get(m).width();
        for (int slot = 1; slot < slots; slot++) {
          rows[at + slot] = aggregates.isLong(m) ? in.getZigZag() : in.getLong();
        }
      }
    }
    byte[] sketchBytes = parseSketches(in, sketches, aggregates, rows, records);
    int nodeCount = in.getCount(in.remaining(), "star-tree nodes");
    if (nodeCount == 0) {
      throw in.corrupt("a star-tree without a root node");
    }
    Nodes nodes =
        new Nodes(
            new int[nodeCount],
            new int[nodeCount],
            new int[nodeCount],
            new int[nodeCount],
            new int[nodeCount],
            new int[nodeCount]);
    for (int n = 0; n < nodeCount; n++) {
      nodes.value()[n] = (int) in.getZigZag();
      nodes.start()[n] = in.getVarInt();
      nodes.end()[n] = in.getVarInt();
      nodes.split()[n] = (int) in.getZigZag();
      nodes.firstChild()[n] = in.getVarInt();
      nodes.children()[n] = in.getVarInt();
      checkNode(in, nodes, n, records, nodeCount, arity, values, hasNull);
    }
    for (int n = 0; n < nodeCount; n++) {
      int split = nodes.split()[n];
      if (split < 0) {
        continue;
      }
      int limit = values[split].length + (hasNull[split] ? 1 : 0);
      int first = nodes.firstChild()[n];
      for (int child = first; child < first + nodes.children()[n]; child++) {
        int value = nodes.value()[child];
        boolean lastChild = child == first + nodes.children()[n] - 1;
        if (!(value >= 0 && value < limit)
            && !(value == STAR && lastChild)
            && !(value == ROLLED && split == arity - 1)) {
          throw in.corrupt(
              "star-tree node %d has value %d under dimension %d".formatted(child, value, split));
        }
      }
    }
    in.expectEnd();
    return new StarTree(
        dimensions, values, hasNull, aggregates, records, tuples, rows, nodes, sketchBytes);
  }

  private static List<StarTreeSketch> parseSketchColumns(PartReader in)
      throws CorruptSegmentException {
    int count = in.getCount(MAX_SKETCHES, "star-tree sketch columns");
    if (count == 0) {
      throw in.corrupt("a version 3 star-tree without sketch columns");
    }
    List<StarTreeSketch> sketches = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      String column = in.getString();
      ValueType type = type(in);
      int lgK = in.getByte();
      if (lgK < 4 || lgK > 21) {
        throw in.corrupt("star-tree sketch column %s has lgK %d".formatted(column, lgK));
      }
      sketches.add(new StarTreeSketch(column, type, lgK));
    }
    return sketches;
  }

  /**
   * Reads every record's sketches into one array and sets each record's slot; checks that each is
   * an HLL sketch of its column's lgK (the library checks the rest when a query unions it).
   */
  private static byte[] parseSketches(
      PartReader in, List<StarTreeSketch> sketches, Aggregates aggregates, long[] rows, int records)
      throws CorruptSegmentException {
    if (sketches.isEmpty()) {
      return new byte[0];
    }
    // Sized for a few coupons a record, within what the part can hold (its records were counted).
    PartWriter bytes =
        new PartWriter((int) Math.min(in.remaining(), (long) records * sketches.size() * 16));
    int width = aggregates.width();
    for (int k = 0; k < sketches.size(); k++) {
      int offset = aggregates.sketchOffset(k);
      for (int r = 0; r < records; r++) {
        int length = in.getCount(in.remaining(), "star-tree sketch bytes");
        if (length == 0) {
          continue;
        }
        byte[] sketch = in.getBytes(length);
        if (length < 8 || sketch[2] != HLL_FAMILY_ID || sketch[3] != sketches.get(k).lgK()) {
          throw in.corrupt(
              "star-tree record %d's sketch of %s is not an HLL sketch of lgK %d (%d bytes)"
                  .formatted(r, sketches.get(k).column(), sketches.get(k).lgK(), length));
        }
        rows[r * width + offset] = sketchSlot(bytes.size(), length);
        bytes.putBytes(sketch);
      }
    }
    return bytes.toByteArray();
  }

  private static void checkNode(
      PartReader in,
      Nodes nodes,
      int n,
      int records,
      int nodeCount,
      int arity,
      Object[][] values,
      boolean[] hasNull)
      throws CorruptSegmentException {
    int start = nodes.start()[n];
    int end = nodes.end()[n];
    int split = nodes.split()[n];
    boolean valid = start >= 0 && start <= end && end <= records && split >= -1 && split < arity;
    if (valid && split >= 0) {
      int first = nodes.firstChild()[n];
      int children = nodes.children()[n];
      valid = first > n && children > 0 && (long) first + children <= nodeCount;
    }
    if (valid && n > 0) {
      int value = nodes.value()[n];
      valid = value >= STAR || value == ROLLED; // checked against the parent's split below
    }
    if (!valid) {
      throw in.corrupt("star-tree node %d is malformed".formatted(n));
    }
  }

  private static ValueType type(PartReader in) throws CorruptSegmentException {
    int code = in.getByte();
    return ValueType.fromCode(code)
        .orElseThrow(() -> in.corrupt("unknown star-tree value type " + code));
  }

  @Override
  public String toString() {
    return "StarTree[dimensions=%s, metrics=%s, sketches=%s, records=%d, rolledUp=%d, nodes=%d]"
        .formatted(
            dimensions,
            aggregates.metrics(),
            aggregates.sketches(),
            records,
            rolledUp,
            nodes.count());
  }
}
