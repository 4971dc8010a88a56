package io.shelfmark.segment.startree;

import io.shelfmark.segment.spi.ValueType;
import java.util.List;

/**
 * The layout of one record's aggregates as a row of longs (doubles as their raw bits): slot 0 is
 * COUNT(*), then per metric its non-null count, sum, min and max (a LONG sum takes two slots, the
 * high and the low word of 128 bits), then one slot per sketch column (while building, a handle
 * into {@link RecordSketches}; in a sealed tree, {@link StarTree#sketchSlot} of its bytes). Adding
 * a row, merging two records and copying a record's sketches are the only operations; they keep
 * sums exact for LONG and sketches equal to one sketch over the rows.
 */
final class Aggregates {
  private final List<StarTreeMetric> metrics;
  private final List<StarTreeSketch> sketches;
  private final int[] offsets;
  private final int[] sketchOffsets;
  private final boolean[] longs;
  private final boolean[] extremes;
  private final int width;
  // Only while building, and only with sketch columns.
  private final RecordSketches recordSketches;

  Aggregates(List<StarTreeMetric> metrics) {
    this(metrics, List.of());
  }

  Aggregates(List<StarTreeMetric> metrics, List<StarTreeSketch> sketches) {
    this.metrics = List.copyOf(metrics);
    this.sketches = List.copyOf(sketches);
    this.offsets = new int[metrics.size()];
    this.longs = new boolean[metrics.size()];
    this.extremes = new boolean[metrics.size()];
    int offset = 1;
    for (int m = 0; m < metrics.size(); m++) {
      offsets[m] = offset;
      longs[m] = metrics.get(m).type() == ValueType.LONG;
      extremes[m] = metrics.get(m).extremes();
      offset += metrics.get(m).width();
    }
    this.sketchOffsets = new int[sketches.size()];
    for (int s = 0; s < sketches.size(); s++) {
      sketchOffsets[s] = offset++;
    }
    this.width = offset;
    this.recordSketches = sketches.isEmpty() ? null : new RecordSketches(sketches);
  }

  List<StarTreeMetric> metrics() {
    return metrics;
  }

  List<StarTreeSketch> sketches() {
    return sketches;
  }

  int sketchOffset(int sketch) {
    return sketchOffsets[sketch];
  }

  /** The long a packed row holds for a STRING sketch column's value (see {@link #pack}). */
  long stringId(int sketch, String value) {
    return recordSketches.stringId(sketch, value);
  }

  /**
   * Replaces the sketch handles of records {@code [0, records)} by their sealed bytes' slots and
   * returns the bytes (empty without sketch columns).
   */
  byte[] sealSketches(long[] rows, int records) {
    return recordSketches == null
        ? new byte[0]
        : recordSketches.seal(rows, records, width, sketchOffsets);
  }

  /**
   * Gives record {@code at} of {@code rows} copies of its sketches (it was copied from another).
   */
  void copySketches(long[] rows, int at) {
    for (int s = 0; s < sketchOffsets.length; s++) {
      recordSketches.copy(rows, at + sketchOffsets[s], s);
    }
  }

  int width() {
    return width;
  }

  int offset(int metric) {
    return offsets[metric];
  }

  boolean isLong(int metric) {
    return longs[metric];
  }

  boolean hasExtremes(int metric) {
    return extremes[metric];
  }

  /**
   * The longs one row takes in {@link #addPacked}'s layout: null flags, then one value a metric.
   */
  int packedWidth() {
    int columns = offsets.length + sketchOffsets.length;
    return (columns + 63) / 64 + columns;
  }

  /**
   * Writes one row in the packed layout {@link #addPacked} reads: a bit per metric and sketch
   * column, set when null, in {@code (columns + 63) / 64} words, then per metric its value (a
   * double as its raw bits), then per sketch column its value in {@code longValues} (a LONG's
   * value, a DOUBLE's {@link StarTreeSketch#canonicalBits}, a STRING's {@link #stringId}).
   */
  void pack(long[] target, int at, boolean[] nulls, long[] longValues, double[] doubleValues) {
    int columns = offsets.length + sketchOffsets.length;
    int values = at + (columns + 63) / 64;
    for (int m = 0; m < columns; m++) {
      if (nulls[m]) {
        target[at + (m >>> 6)] |= 1L << m;
      } else {
        target[values + m] =
            m >= offsets.length || longs[m]
                ? longValues[m]
                : Double.doubleToRawLongBits(doubleValues[m]);
      }
    }
  }

  /** {@link #addRow} of a row written by {@link #pack}, at {@code from} of {@code source}. */
  void addPacked(long[] target, int at, long[] source, int from) {
    target[at]++;
    int values = from + (offsets.length + sketchOffsets.length + 63) / 64;
    for (int m = 0; m < offsets.length; m++) {
      if ((source[from + (m >>> 6)] & (1L << m)) != 0) {
        continue;
      }
      int o = at + offsets[m];
      long seen = target[o]++;
      long value = source[values + m];
      if (longs[m]) {
        addLong(target, o, value, value, value, seen == 0, extremes[m]);
      } else {
        double d = Double.longBitsToDouble(value);
        addDouble(target, o, d, d, d, seen == 0, extremes[m]);
      }
    }
    for (int s = 0, m = offsets.length; s < sketchOffsets.length; s++, m++) {
      if ((source[from + (m >>> 6)] & (1L << m)) == 0) {
        recordSketches.update(target, at + sketchOffsets[s], s, source[values + m]);
      }
    }
  }

  /**
   * Merges record {@code from} of {@code source} into record {@code at} of {@code target}; the
   * source record is consumed (its sketches may move into the target's).
   */
  void merge(long[] target, int at, long[] source, int from) {
    target[at] += source[from];
    for (int s = 0; s < sketchOffsets.length; s++) {
      recordSketches.merge(target, at + sketchOffsets[s], source, from + sketchOffsets[s]);
    }
    for (int m = 0; m < offsets.length; m++) {
      int o = at + offsets[m];
      int s = from + offsets[m];
      long count = source[s];
      if (count == 0) {
        continue;
      }
      boolean first = target[o] == 0;
      target[o] += count;
      if (longs[m]) {
        long before = target[o + 2];
        long after = before + source[s + 2];
        target[o + 2] = after;
        target[o + 1] += source[s + 1] + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
        if (extremes[m]) {
          target[o + 3] = first ? source[s + 3] : Math.min(target[o + 3], source[s + 3]);
          target[o + 4] = first ? source[s + 4] : Math.max(target[o + 4], source[s + 4]);
        }
      } else {
        addDouble(
            target,
            o,
            Double.longBitsToDouble(source[s + 1]),
            extremes[m] ? Double.longBitsToDouble(source[s + 2]) : 0,
            extremes[m] ? Double.longBitsToDouble(source[s + 3]) : 0,
            first,
            extremes[m]);
      }
    }
  }

  private static void addLong(
      long[] t, int o, long sum, long min, long max, boolean first, boolean extremes) {
    long before = t[o + 2];
    long after = before + sum;
    t[o + 2] = after;
    t[o + 1] += (sum >> 63) + (Long.compareUnsigned(after, before) < 0 ? 1 : 0);
    if (extremes) {
      t[o + 3] = first ? min : Math.min(t[o + 3], min);
      t[o + 4] = first ? max : Math.max(t[o + 4], max);
    }
  }

  private static void addDouble(
      long[] t, int o, double sum, double min, double max, boolean first, boolean extremes) {
    t[o + 1] = Double.doubleToRawLongBits(Double.longBitsToDouble(t[o + 1]) + sum);
    if (!extremes) {
      return;
    }
    double oldMin = Double.longBitsToDouble(t[o + 2]);
    double oldMax = Double.longBitsToDouble(t[o + 3]);
    t[o + 2] =
        Double.doubleToRawLongBits(first || compare(min, oldMin) < 0 ? canonical(min) : oldMin);
    t[o + 3] =
        Double.doubleToRawLongBits(first || compare(max, oldMax) > 0 ? canonical(max) : oldMax);
  }

  /** SQL order of doubles: -0.0 equals 0.0, NaN is the greatest. */
  static int compare(double a, double b) {
    return Double.compare(canonical(a), canonical(b));
  }

  private static double canonical(double value) {
    return value == 0.0 ? 0.0 : value;
  }
}
