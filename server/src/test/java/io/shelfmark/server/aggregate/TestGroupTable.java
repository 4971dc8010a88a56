package io.shelfmark.server.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.exchange.vector.Vector;
import io.shelfmark.exchange.vector.VectorEvaluator;
import io.shelfmark.exchange.vector.VectorInputs;
import io.shelfmark.sql.expression.ColumnRef;
import io.shelfmark.sql.expression.DateTrunc;
import io.shelfmark.sql.expression.DateTruncUnit;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.type.PrimitiveType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Group ids and keys of {@link GroupTable} against a reference: each key evaluated by {@link
 * VectorEvaluator} (the generic path), tuples numbered first-seen through a HashMap.
 */
class TestGroupTable {
  private static final ColumnRef MILLIS = new ColumnRef("logical_timestamp", PrimitiveType.LONG);
  private static final ColumnRef MICROS = new ColumnRef("event_time", PrimitiveType.TIMESTAMP);
  private static final ColumnRef NAME = new ColumnRef("metric", PrimitiveType.STRING);
  // 2025-08-03T14:00Z in millis.
  private static final long HOUR_END = 1_754_229_600_000L;

  @Test
  void secondBucketsOfAnHourOfMillis() {
    Random random = new Random(3);
    check(
        List.of(new DateTrunc(DateTruncUnit.SECOND, MILLIS)),
        () -> HOUR_END - random.nextInt(3_600_001),
        0.0,
        random);
  }

  @Test
  void bucketsOfEveryFixedUnitWithNullsAndValuesBefore1970() {
    for (DateTruncUnit unit :
        List.of(
            DateTruncUnit.MILLISECOND,
            DateTruncUnit.SECOND,
            DateTruncUnit.MINUTE,
            DateTruncUnit.HOUR,
            DateTruncUnit.DAY)) {
      for (ColumnRef column : List.of(MILLIS, MICROS)) {
        Random random = new Random(unit.ordinal());
        long scale = column == MILLIS ? 1 : 1_000;
        check(
            List.of(new DateTrunc(unit, column)),
            () -> (random.nextInt(2_000_001) - 1_000_000L) * 37 * scale,
            0.1,
            random);
      }
    }
  }

  @Test
  void rowsInTimeOrderAndAtBothEndsOfTheLongRange() {
    // Ascending rows take the previous row's bucket without a lookup; the buckets at the ends of
    // the range, whose start or end a long cannot hold, are looked up every time.
    Random random = new Random(7);
    long[] next = {HOUR_END - 3_600_000};
    check(
        List.of(new DateTrunc(DateTruncUnit.SECOND, MILLIS)),
        () -> next[0] += random.nextInt(40),
        0.05,
        random);
    long[] low = {Long.MIN_VALUE};
    check(
        List.of(new DateTrunc(DateTruncUnit.SECOND, MILLIS)),
        () -> low[0] += random.nextInt(300),
        0.05,
        random);
    long[] high = {Long.MAX_VALUE - 10_000_000};
    check(
        List.of(new DateTrunc(DateTruncUnit.SECOND, MILLIS)),
        () -> high[0] += random.nextInt(300),
        0.05,
        random);
  }

  @Test
  void bucketsTooFarApartForTheDirectArrayFallBackToHashing() {
    Random random = new Random(4);
    // Seconds over a century: far more than LongKeyIds.MAX_DENSE_SPAN buckets apart.
    GroupTable table =
        check(
            List.of(new DateTrunc(DateTruncUnit.SECOND, MILLIS)),
            () -> random.nextLong(-1_600_000_000_000L, 1_600_000_000_000L),
            0.05,
            random);
    assertThat(table.groupCount()).isGreaterThan(1_000);
  }

  @Test
  void calendarUnitsAndPlainColumnsTakeTheGenericPath() {
    Random random = new Random(5);
    check(
        List.of(new DateTrunc(DateTruncUnit.MONTH, MILLIS)),
        () -> HOUR_END + random.nextLong(-400L * 86_400_000, 400L * 86_400_000),
        0.1,
        random);
    check(List.of(MILLIS), () -> random.nextInt(500) * 7L - 1_000, 0.1, random);
  }

  @Test
  void aTimeBucketCombinedWithAString() {
    Random random = new Random(6);
    check(
        List.of(new DateTrunc(DateTruncUnit.MINUTE, MILLIS), NAME),
        () -> HOUR_END - random.nextInt(3_600_001),
        0.1,
        random);
  }

  /**
   * Feeds five batches of rows (values from {@code values}, NULL with probability {@code
   * nullShare}, a random subset selected) and checks every group id and the groups' keys.
   */
  private static GroupTable check(
      List<Expression> keys, LongSupplier values, double nullShare, Random random) {
    GroupTable table = new GroupTable(keys);
    Map<List<Object>, Integer> expected = new HashMap<>();
    List<List<Object>> expectedKeys = new ArrayList<>();
    for (int batch = 0; batch < 5; batch++) {
      int size = 2_000 + random.nextInt(3_000);
      Map<Expression, Vector> columns = batchColumns(size, values, nullShare, random);
      VectorInputs inputs = columns::get;
      int[] sel = new int[size];
      int n = 0;
      for (int row = 0; row < size; row++) {
        if (random.nextInt(4) != 0) {
          sel[n++] = row;
        }
      }
      List<Vector> keyVectors = new ArrayList<>();
      for (Expression key : keys) {
        keyVectors.add(VectorEvaluator.evaluate(key, inputs, size));
      }
      int[] out = new int[n];
      table.groupIds(inputs, size, sel, n, out);
      for (int j = 0; j < n; j++) {
        List<Object> tuple = new ArrayList<>();
        for (Vector vector : keyVectors) {
          tuple.add(vector.boxed(sel[j]));
        }
        Integer id = expected.get(tuple);
        if (id == null) {
          id = expected.size();
          expected.put(tuple, id);
          expectedKeys.add(tuple);
        }
        assertThat(out[j])
            .as("group of row %d (key %s) in batch %d", sel[j], tuple, batch)
            .isEqualTo(id);
      }
    }
    assertThat(table.groupCount()).isEqualTo(expected.size());
    for (int group = 0; group < expectedKeys.size(); group++) {
      assertThat(java.util.Arrays.asList(table.key(group)))
          .as("key of group %d", group)
          .isEqualTo(expectedKeys.get(group));
    }
    return table;
  }

  private static Map<Expression, Vector> batchColumns(
      int size, LongSupplier values, double nullShare, Random random) {
    long[] millis = new long[size];
    long[] micros = new long[size];
    boolean[] nulls = new boolean[size];
    Object[] names = new Object[size];
    boolean anyNull = false;
    for (int row = 0; row < size; row++) {
      if (random.nextDouble() < nullShare) {
        nulls[row] = true;
        anyNull = true;
      } else {
        millis[row] = values.getAsLong();
        micros[row] = millis[row];
      }
      names[row] = random.nextInt(10) == 0 ? null : "metric_" + random.nextInt(3);
    }
    boolean[] nameNulls = new boolean[size];
    for (int row = 0; row < size; row++) {
      nameNulls[row] = names[row] == null;
    }
    return Map.of(
        MILLIS, Vector.ofLongs(PrimitiveType.LONG, size, millis, anyNull ? nulls : null),
        MICROS,
            Vector.ofLongs(
                PrimitiveType.TIMESTAMP, size, micros, anyNull ? Arrays.copyOf(nulls, size) : null),
        NAME, Vector.ofObjects(PrimitiveType.STRING, size, names, nameNulls));
  }
}
