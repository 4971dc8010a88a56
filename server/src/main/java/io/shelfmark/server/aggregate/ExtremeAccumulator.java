package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.vector.Values;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.sql.expression.ValueOrder;
import io.shelfmark.sql.type.SqlType;
import java.util.Arrays;

/**
 * MIN or MAX per group: in a long or double array for numbers and times (doubles in SQL order: NaN
 * greatest, -0.0 = 0.0), otherwise the boxed value.
 */
final class ExtremeAccumulator extends Accumulator {
  private final SqlType type;
  private final boolean max;
  private final boolean longs;
  private final boolean doubles;
  private long[] longValues = new long[16];
  private double[] doubleValues = new double[16];
  private Object[] objectValues = new Object[16];
  private boolean[] seen = new boolean[16];

  ExtremeAccumulator(SqlType type, boolean max) {
    this.type = type;
    this.max = max;
    this.longs = Vector.isLongType(type);
    this.doubles = Vector.isDoubleType(type);
  }

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    if (seen.length < groupCount) {
      int size = grow(seen.length, groupCount);
      longValues = Arrays.copyOf(longValues, size);
      doubleValues = Arrays.copyOf(doubleValues, size);
      objectValues = Arrays.copyOf(objectValues, size);
      seen = Arrays.copyOf(seen, size);
    }
    if (longs) {
      long[] values = argument.longs();
      for (int j = 0; j < n; j++) {
        int row = sel[j];
        if (!argument.isNull(row)) {
          int group = groups[j];
          long value = values[row];
          if (!seen[group] || (max ? value > longValues[group] : value < longValues[group])) {
            longValues[group] = value;
            seen[group] = true;
          }
        }
      }
    } else if (doubles) {
      double[] values = argument.doubles();
      for (int j = 0; j < n; j++) {
        int row = sel[j];
        if (!argument.isNull(row)) {
          int group = groups[j];
          double value = values[row];
          int compare = seen[group] ? ValueOrder.compareFloating(value, doubleValues[group]) : 0;
          if (!seen[group] || (max ? compare > 0 : compare < 0)) {
            doubleValues[group] = value;
            seen[group] = true;
          }
        }
      }
    } else {
      for (int j = 0; j < n; j++) {
        Object value = argument.object(sel[j]);
        if (value != null) {
          int group = groups[j];
          int compare = seen[group] ? Values.compare(value, objectValues[group]) : 0;
          if (!seen[group] || (max ? compare > 0 : compare < 0)) {
            objectValues[group] = value;
            seen[group] = true;
          }
        }
      }
    }
  }

  @Override
  public AggregateState state(int group) {
    if (group >= seen.length || !seen[group]) {
      return new AggregateState.Extreme(null, max);
    }
    Object raw = longs ? longValues[group] : doubles ? doubleValues[group] : objectValues[group];
    return new AggregateState.Extreme(KeyValues.box(type, raw), max);
  }
}
