package io.shelfmark.server.aggregate;

import io.shelfmark.exchange.result.AggregateState;
import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.sql.type.SqlType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.datasketches.hll.HllSketch;
import org.apache.datasketches.hll.TgtHllType;

/**
 * DISTINCTCOUNTHLL(x): per group a DataSketches HLL sketch of lgK {@link AggregateState#HLL_LG_K}.
 * Longs and doubles are hashed as numbers (doubles canonical: -0.0 as 0.0), strings as their UTF-8
 * bytes, decimals as their plain text, binary as bytes, so every file hashes a value alike and
 * sketches merge.
 */
final class HllAccumulator extends Accumulator {
  private final boolean longs;
  private final boolean doubles;
  private final List<HllSketch> sketches = new ArrayList<>();

  HllAccumulator(SqlType type) {
    this.longs = Vector.isLongType(type);
    this.doubles = Vector.isDoubleType(type);
  }

  @Override
  public void add(Vector argument, int[] sel, int[] groups, int n, int groupCount) {
    while (sketches.size() < groupCount) {
      sketches.add(null);
    }
    for (int j = 0; j < n; j++) {
      int row = sel[j];
      if (argument.isNull(row)) {
        continue;
      }
      HllSketch sketch = sketches.get(groups[j]);
      if (sketch == null) {
        sketch = new HllSketch(AggregateState.HLL_LG_K, TgtHllType.HLL_4);
        sketches.set(groups[j], sketch);
      }
      if (longs) {
        sketch.update(argument.longs()[row]);
      } else if (doubles) {
        sketch.update(DistinctAccumulator.canonicalBits(argument.doubles()[row]));
      } else {
        switch (argument.object(row)) {
          // An empty string or array is ignored by update(): hash a stand-in long instead.
          case String text when text.isEmpty() -> sketch.update(Long.MIN_VALUE);
          case byte[] bytes when bytes.length == 0 -> sketch.update(Long.MIN_VALUE);
          case String text -> sketch.update(text);
          case byte[] bytes -> sketch.update(bytes);
          case BigDecimal decimal -> sketch.update(decimal.toPlainString());
          default -> throw new IllegalStateException("Cannot hash " + argument.type());
        }
      }
    }
  }

  @Override
  public AggregateState state(int group) {
    HllSketch sketch = group < sketches.size() ? sketches.get(group) : null;
    return new AggregateState.Hll(
        sketch != null ? sketch : new HllSketch(AggregateState.HLL_LG_K, TgtHllType.HLL_4));
  }
}
