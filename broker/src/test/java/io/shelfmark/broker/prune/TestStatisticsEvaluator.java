package io.shelfmark.broker.prune;

import static io.shelfmark.broker.prune.PruneResult.ALL_MATCH;
import static io.shelfmark.broker.prune.PruneResult.CANNOT_MATCH;
import static io.shelfmark.broker.prune.PruneResult.MIGHT_MATCH;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.segment.metadata.ColumnStatistics;
import io.shelfmark.segment.spi.Value;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.expression.Expression;
import io.shelfmark.sql.expression.Literal;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * Each pruning rule on hand-made statistics: what can be ruled out, what must be read, and the NULL
 * cases where SQL's three-valued logic decides (a comparison never passes a NULL).
 */
class TestStatisticsEvaluator {
  static final Schema SCHEMA =
      new Schema(
          optional(1, "x", Types.LongType.get()),
          optional(2, "i", Types.IntegerType.get()),
          optional(3, "d", Types.DoubleType.get()),
          optional(4, "s", Types.StringType.get()),
          optional(5, "dt", Types.DateType.get()),
          optional(6, "ts", Types.TimestampType.withoutZone()),
          optional(7, "b", Types.BooleanType.get()),
          optional(
              8,
              "m",
              Types.MapType.ofOptional(9, 10, Types.StringType.get(), Types.StringType.get())));

  private static final SqlPlanner PLANNER =
      new SqlPlanner(
          TableSchemaProvider.of(IcebergSchemas.toBoundTable(TableName.of("t"), SCHEMA)));

  private final Map<String, ColumnStatistics> columns = new HashMap<>();
  private long rows = 100;

  @Test
  void equalityAndInequality() {
    longs("x", 10, 20, 0);
    assertThat(evaluate("x = 5")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x = 25")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x = 15")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x <> 5")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x <> 15")).isEqualTo(MIGHT_MATCH);
    longs("x", 7, 7, 0);
    assertThat(evaluate("x = 7")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x <> 7")).isEqualTo(CANNOT_MATCH);
    // With nulls, x = 7 is not TRUE everywhere, and x <> 7 is still never TRUE.
    longs("x", 7, 7, 3);
    assertThat(evaluate("x = 7")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x <> 7")).isEqualTo(CANNOT_MATCH);
    longs("x", 10, 20, 3);
    assertThat(evaluate("x <> 5")).isEqualTo(MIGHT_MATCH);
  }

  @Test
  void ranges() {
    longs("x", 10, 20, 0);
    assertThat(evaluate("x < 10")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x < 11")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x < 21")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x <= 9")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x <= 20")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x > 20")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x > 9")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x >= 21")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x >= 10")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("5 > x")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x BETWEEN 30 AND 40")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x BETWEEN 15 AND 40")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x BETWEEN 0 AND 40")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x NOT BETWEEN 0 AND 100")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x NOT BETWEEN 15 AND 100")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x NOT BETWEEN 30 AND 40")).isEqualTo(ALL_MATCH);
  }

  @Test
  void inLists() {
    longs("x", 10, 20, 0);
    assertThat(evaluate("x IN (1, 2, 30)")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x IN (1, 15)")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x NOT IN (1, 2)")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x NOT IN (1, NULL)")).isEqualTo(CANNOT_MATCH);
    longs("x", 4, 4, 0);
    assertThat(evaluate("x NOT IN (4, 5)")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x IN (4, 5)")).isEqualTo(ALL_MATCH);
  }

  @Test
  void nulls() {
    longs("x", 10, 20, 0);
    assertThat(evaluate("x IS NULL")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x IS NOT NULL")).isEqualTo(ALL_MATCH);
    columns.put(
        "x", new ColumnStatistics(rows, OptionalLong.of(rows), Optional.empty(), Optional.empty()));
    assertThat(evaluate("x IS NULL")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x IS NOT NULL")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x = 5")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x <> 5")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x IN (5)")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x NOT BETWEEN 1 AND 2")).isEqualTo(CANNOT_MATCH);
    columns.put("x", ColumnStatistics.unknown(rows));
    assertThat(evaluate("x IS NULL")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x = 5")).isEqualTo(MIGHT_MATCH);
    assertThat(
            StatisticsEvaluator.evaluate(
                Literal.nullOf(io.shelfmark.sql.type.PrimitiveType.BOOLEAN), statistics()))
        .isEqualTo(CANNOT_MATCH);
  }

  @Test
  void andOr() {
    longs("x", 10, 20, 0);
    strings("s", "b", "d", 0);
    assertThat(evaluate("x = 15 AND s = 'a'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x = 15 AND s = 'c'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x = 1 OR s = 'z'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("x = 1 OR s = 'c'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x > 1 OR s = 'z'")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("NOT (x > 1 AND s >= 'b')")).isEqualTo(CANNOT_MATCH);
    // An unknown column makes its terms unknowable, never prunable.
    assertThat(evaluate("x = 15 AND i = 3")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("x + 1 = 100")).isEqualTo(MIGHT_MATCH);
  }

  @Test
  void castsTheBinderInserted() {
    ints("i", 0, 10, 0);
    // i < 3000000000 compares CAST(i AS LONG); the cast keeps the order, so bounds carry over.
    assertThat(evaluate("i < 3000000000")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("i > 3000000000")).isEqualTo(CANNOT_MATCH);
    // 10.5 is a DECIMAL literal: i is cast to DECIMAL, which has no statistics domain yet.
    assertThat(evaluate("i > 10.5")).isEqualTo(MIGHT_MATCH);
    columns.put("dt", longStatistics(20_000, 20_010, 0));
    assertThat(evaluate("dt < TIMESTAMP '2024-01-01 00:00:00'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("dt < TIMESTAMP '2030-01-01 00:00:00'")).isEqualTo(ALL_MATCH);
  }

  @Test
  void floatingPointNaNs() {
    // Without NaN information max is unknown: NaN > 5 is TRUE in SQL, so x > 5 might match.
    columns.put(
        "d",
        new ColumnStatistics(
            rows, OptionalLong.of(0), Optional.of(Value.of(1.0)), Optional.empty()));
    assertThat(evaluate("d > 5.0")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("d < 0.5")).isEqualTo(CANNOT_MATCH);
    columns.put("d", doubles(1.0, 3.0));
    assertThat(evaluate("d > 5.0")).isEqualTo(CANNOT_MATCH);
    columns.put("d", doubles(1.0, Double.NaN));
    assertThat(evaluate("d > 5.0")).isEqualTo(MIGHT_MATCH);
    // -0.0 equals 0.0.
    columns.put("d", doubles(-0.0, -0.0));
    assertThat(evaluate("d = 0.0")).isEqualTo(ALL_MATCH);
  }

  @Test
  void stringsAndLike() {
    strings("s", "apple", "melon", 0);
    assertThat(evaluate("s = 'zebra'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("s LIKE 'tk%'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("s LIKE 'ap%'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("s LIKE 'a%'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("s LIKE 'aa%'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("s LIKE 'kiwi'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("s LIKE 'zz_'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("s NOT LIKE 'a%'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("s LIKE '%'")).isEqualTo(MIGHT_MATCH);
    // Code-point order: U+FFFF sorts below a supplementary character.
    strings("s", "\uFFFF", "\uFFFF", 0);
    assertThat(evaluate("s > '\uD83D\uDE00'")).isEqualTo(CANNOT_MATCH);
    assertThat(StatisticsEvaluator.successor("ab")).contains("ac");
    assertThat(StatisticsEvaluator.successor("a\uD7FF")).contains("a\uE000");
  }

  @Test
  void mapKeysAndBooleans() {
    strings("m['node']", "n1", "n5", 10);
    assertThat(evaluate("m['node'] = 'xyz'")).isEqualTo(CANNOT_MATCH);
    assertThat(evaluate("m['node'] = 'n3'")).isEqualTo(MIGHT_MATCH);
    assertThat(evaluate("m['service'] = 'xyz'")).isEqualTo(MIGHT_MATCH);
    columns.put("b", longStatistics(1, 1, 0));
    assertThat(evaluate("b")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("NOT b")).isEqualTo(CANNOT_MATCH);
  }

  @Test
  void emptyUnitsAndConstantFilters() {
    longs("x", 10, 20, 0);
    assertThat(evaluate("x = 15 OR 1 = 1")).isEqualTo(ALL_MATCH);
    assertThat(evaluate("x = 15 AND 1 = 0")).isEqualTo(CANNOT_MATCH);
    rows = 0;
    assertThat(evaluate("x IS NULL OR x IS NOT NULL")).isEqualTo(CANNOT_MATCH);
  }

  private PruneResult evaluate(String where) {
    Optional<Expression> filter = PLANNER.plan("SELECT COUNT(*) FROM t WHERE " + where).filter();
    return StatisticsEvaluator.evaluate(filter.orElse(Literal.of(true)), statistics());
  }

  private PruningStatistics statistics() {
    return PruningStatistics.of(rows, columns);
  }

  private void longs(String column, long min, long max, long nulls) {
    columns.put(column, longStatistics(min, max, nulls));
  }

  private void ints(String column, long min, long max, long nulls) {
    columns.put(column, longStatistics(min, max, nulls));
  }

  private ColumnStatistics longStatistics(long min, long max, long nulls) {
    return new ColumnStatistics(
        rows, OptionalLong.of(nulls), Optional.of(Value.of(min)), Optional.of(Value.of(max)));
  }

  private ColumnStatistics doubles(double min, double max) {
    return new ColumnStatistics(
        rows, OptionalLong.of(0), Optional.of(Value.of(min)), Optional.of(Value.of(max)));
  }

  private void strings(String column, String min, String max, long nulls) {
    columns.put(
        column,
        new ColumnStatistics(
            rows, OptionalLong.of(nulls), Optional.of(Value.of(min)), Optional.of(Value.of(max))));
  }
}
