package io.shelfmark.broker.prune;

import static io.shelfmark.broker.prune.PruneResult.ALL_MATCH;
import static io.shelfmark.broker.prune.PruneResult.CANNOT_MATCH;
import static io.shelfmark.broker.prune.PruneResult.MIGHT_MATCH;
import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.catalog.snapshot.ColumnBounds;
import io.shelfmark.catalog.snapshot.DataFileInfo;
import io.shelfmark.catalog.snapshot.FilePartition;
import io.shelfmark.sql.SqlPlanner;
import io.shelfmark.sql.plan.QueryPlan;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.transforms.Transform;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/**
 * File pruning on partition values through each Iceberg transform (the partition values computed
 * with Iceberg's own transforms from a row the file holds) and on manifest bounds.
 */
class TestFilePruner {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "org_id", Types.LongType.get()),
          optional(2, "metric", Types.StringType.get()),
          optional(3, "ts", Types.TimestampType.withoutZone()),
          optional(4, "event_day", Types.DateType.get()),
          optional(5, "qty", Types.IntegerType.get()),
          required(6, "logical_timestamp", Types.LongType.get()),
          optional(7, "amount", Types.DoubleType.get()));

  private static final long MICROS_PER_HOUR = 3_600_000_000L;
  private static final long DAY_MILLIS = 86_400_000L;

  @Test
  void identityPartitions() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("org_id").build();
    FilePruner pruner = pruner("org_id = 7", spec);
    assertThat(pruner.prune(file(spec, 7L))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner.prune(file(spec, 8L))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("org_id IN (1, 2, 3)", spec).prune(file(spec, 8L))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("org_id IN (1, 8)", spec).prune(file(spec, 8L))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner("org_id <> 8", spec).prune(file(spec, 8L))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("org_id > 8 OR org_id < 8", spec).prune(file(spec, 8L)))
        .isEqualTo(CANNOT_MATCH);
    // Q3 and Q4 write the BIGINT org_id as a string literal: the binder casts it to 184833768.
    assertThat(pruner("org_id = '184833768'", spec).prune(file(spec, 184833768L)))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("org_id = '184833768'", spec).prune(file(spec, 7L))).isEqualTo(CANNOT_MATCH);
  }

  @Test
  void nullPartitionValues() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("metric").build();
    assertThat(pruner("metric = 'a'", spec).prune(file(spec, (Object) null)))
        .isEqualTo(CANNOT_MATCH);
    assertThat(pruner("metric <> 'a'", spec).prune(file(spec, (Object) null)))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("metric IS NULL", spec).prune(file(spec, (Object) null)))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("metric IS NOT NULL", spec).prune(file(spec, (Object) null)))
        .isEqualTo(CANNOT_MATCH);
    assertThat(pruner("metric IS NULL", spec).prune(file(spec, "a"))).isEqualTo(CANNOT_MATCH);
  }

  @Test
  void bucketPartitionsHashTheLiteralAsIcebergDoes() {
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).bucket("org_id", 16).build();
    Integer bucket = Transforms.<Long>bucket(16).bind(Types.LongType.get()).apply(184833768L);
    FilePruner pruner = pruner("org_id = 184833768", spec);
    assertThat(pruner.prune(file(spec, bucket))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner.prune(file(spec, (bucket + 1) % 16))).isEqualTo(CANNOT_MATCH);
    // Ranges say nothing about buckets.
    assertThat(pruner("org_id > 5", spec).prune(file(spec, (bucket + 1) % 16)))
        .isEqualTo(MIGHT_MATCH);
  }

  @Test
  void truncatePartitionsOfNumbersAndStrings() {
    PartitionSpec numbers = PartitionSpec.builderFor(SCHEMA).truncate("qty", 10).build();
    assertThat(pruner("qty = 45", numbers).prune(file(numbers, 40))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner("qty = 55", numbers).prune(file(numbers, 40))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("qty < 40", numbers).prune(file(numbers, 40))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("qty >= 50", numbers).prune(file(numbers, 40))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("qty BETWEEN 49 AND 60", numbers).prune(file(numbers, 40)))
        .isEqualTo(MIGHT_MATCH);

    PartitionSpec strings = PartitionSpec.builderFor(SCHEMA).truncate("metric", 3).build();
    assertThat(pruner("metric = 'tk_cache'", strings).prune(file(strings, "tk_")))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("metric = 'abcd'", strings).prune(file(strings, "tk_")))
        .isEqualTo(CANNOT_MATCH);
    assertThat(pruner("metric LIKE 'tk_c%'", strings).prune(file(strings, "tk_")))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("metric LIKE 'zz%'", strings).prune(file(strings, "tk_")))
        .isEqualTo(CANNOT_MATCH);
  }

  @Test
  void timePartitions() {
    LocalDateTime row = LocalDateTime.of(2025, 8, 3, 14, 30);
    long micros = ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), row);
    for (String transform : List.of("hour", "day", "month", "year")) {
      PartitionSpec spec = timeSpec(transform);
      Integer value = timeTransform(transform).apply(micros);
      FilePruner inside = pruner("ts = TIMESTAMP '2025-08-03 14:30:00'", spec);
      assertThat(inside.prune(file(spec, value))).as(transform).isEqualTo(MIGHT_MATCH);
      FilePruner before = pruner("ts < TIMESTAMP '2024-01-01 00:00:00'", spec);
      assertThat(before.prune(file(spec, value))).as(transform).isEqualTo(CANNOT_MATCH);
      FilePruner after = pruner("ts >= TIMESTAMP '2026-01-01 00:00:00'", spec);
      assertThat(after.prune(file(spec, value))).as(transform).isEqualTo(CANNOT_MATCH);
    }
    PartitionSpec hours = timeSpec("hour");
    Integer hour = (int) Math.floorDiv(micros, MICROS_PER_HOUR);
    assertThat(pruner("ts >= TIMESTAMP '2025-08-03 15:00:00'", hours).prune(file(hours, hour)))
        .isEqualTo(CANNOT_MATCH);
    assertThat(pruner("ts > TIMESTAMP '2025-08-03 14:59:59'", hours).prune(file(hours, hour)))
        .isEqualTo(MIGHT_MATCH);

    PartitionSpec days = PartitionSpec.builderFor(SCHEMA).day("event_day").build();
    int august3 = (int) LocalDate.of(2025, 8, 3).toEpochDay();
    assertThat(pruner("event_day = DATE '2025-08-03'", days).prune(file(days, august3)))
        .isEqualTo(MIGHT_MATCH);
    assertThat(pruner("event_day > DATE '2025-08-03'", days).prune(file(days, august3)))
        .isEqualTo(CANNOT_MATCH);
  }

  @Test
  void theGeneratorsDayTruncationOfEpochMillis() {
    PartitionSpec spec =
        PartitionSpec.builderFor(SCHEMA)
            .identity("org_id")
            .truncate("logical_timestamp", (int) DAY_MILLIS, "logical_timestamp_day")
            .build();
    long august3 = LocalDate.of(2025, 8, 3).atStartOfDay().toInstant(ZoneOffset.UTC).toEpochMilli();
    String q2 =
        "metric = 'tk_cache' AND org_id = 184833768"
            + " AND logical_timestamp >= 1754229600000 - 3600000"
            + " AND logical_timestamp <= 1754229600000";
    FilePruner pruner = pruner(q2, spec);
    assertThat(pruner.prune(file(spec, 184833768L, august3))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner.prune(file(spec, 184833768L, august3 - DAY_MILLIS))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner.prune(file(spec, 184833768L, august3 + DAY_MILLIS))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner.prune(file(spec, 7L, august3))).isEqualTo(CANNOT_MATCH);
  }

  @Test
  void filesOfEarlierSpecsAndRenamedColumns() {
    PartitionSpec first = PartitionSpec.builderFor(SCHEMA).identity("metric").build();
    PartitionSpec second =
        PartitionSpec.builderFor(SCHEMA).withSpecId(1).bucket("org_id", 4).build();
    FilePruner pruner =
        FilePruner.of(plan("metric = 'a'", SCHEMA), SCHEMA, Map.of(0, first, 1, second));
    assertThat(pruner.prune(file(first, "b"))).isEqualTo(CANNOT_MATCH);
    assertThat(pruner.prune(file(second, 1))).isEqualTo(MIGHT_MATCH);

    // The spec was bound when the column was called metric; queries use its new name.
    Schema renamed =
        new Schema(
            required(1, "org_id", Types.LongType.get()),
            optional(2, "metric_name", Types.StringType.get()));
    FilePruner afterRename =
        FilePruner.of(plan("metric_name = 'a'", renamed), renamed, Map.of(0, first));
    assertThat(afterRename.prune(file(first, "b"))).isEqualTo(CANNOT_MATCH);
    assertThat(afterRename.prune(file(first, "a"))).isEqualTo(MIGHT_MATCH);
    assertThat(afterRename.errors().count()).isZero();
  }

  @Test
  void manifestBoundsPruneUnpartitionedFiles() {
    PartitionSpec spec = PartitionSpec.unpartitioned();
    DataFileInfo file =
        withBounds(
            Map.of(
                1, bounds(0, 10L, 20L),
                2, bounds(3, "apple", "melon"),
                7,
                    new ColumnBounds(
                        OptionalLong.of(100),
                        OptionalLong.of(0),
                        OptionalLong.empty(),
                        Optional.of(1.0),
                        Optional.of(2.0))));
    assertThat(pruner("org_id = 30", spec).prune(file)).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("org_id BETWEEN 0 AND 100", spec).prune(file)).isEqualTo(ALL_MATCH);
    assertThat(pruner("metric = 'zebra'", spec).prune(file)).isEqualTo(CANNOT_MATCH);
    assertThat(pruner("metric IS NOT NULL", spec).prune(file)).isEqualTo(MIGHT_MATCH);
    // No NaN count for amount: its upper bound cannot rule out NaN, which is above 5.
    assertThat(pruner("amount > 5", spec).prune(file)).isEqualTo(MIGHT_MATCH);
    assertThat(pruner("amount < 0.5", spec).prune(file)).isEqualTo(CANNOT_MATCH);
    // No filter: every row passes.
    assertThat(FilePruner.of(plan(null, SCHEMA), SCHEMA, Map.of(0, spec)).prune(file))
        .isEqualTo(ALL_MATCH);
  }

  @SuppressWarnings("unchecked")
  private static java.util.function.Function<Long, Integer> timeTransform(String name) {
    Transform<Long, Integer> transform =
        (Transform<Long, Integer>) Transforms.fromString(Types.TimestampType.withoutZone(), name);
    return transform.bind(Types.TimestampType.withoutZone())::apply;
  }

  private static PartitionSpec timeSpec(String transform) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(SCHEMA);
    return switch (transform) {
      case "hour" -> builder.hour("ts").build();
      case "day" -> builder.day("ts").build();
      case "month" -> builder.month("ts").build();
      default -> builder.year("ts").build();
    };
  }

  @Test
  void integerColumnAgainstNonIntegralDecimalIsReadNotCrashed() {
    // Issue 21 finding 7: the binder widens qty (INT) and org_id (BIGINT) to DECIMAL for these
    // literals; that cast is not translated, so the file is read (never a ClassCastException).
    PartitionSpec qty = PartitionSpec.builderFor(SCHEMA).identity("qty").build();
    assertThat(pruner("qty > 15000.5", qty).prune(file(qty, 40))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner("qty IN (1.5, 2)", qty).prune(file(qty, 40))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner("qty BETWEEN 0.5 AND 1.5", qty).prune(file(qty, 40))).isEqualTo(MIGHT_MATCH);
    PartitionSpec org = PartitionSpec.builderFor(SCHEMA).identity("org_id").build();
    assertThat(pruner("org_id > 15000.5", org).prune(file(org, 7L))).isEqualTo(MIGHT_MATCH);
  }

  @Test
  void longOrChainPrunesWithoutDeepRecursion() {
    // Issue 21 finding 1: 2,000 ORs reach the broker's partition pruning as one flat OR.
    PartitionSpec spec = PartitionSpec.builderFor(SCHEMA).identity("org_id").build();
    String where =
        java.util.stream.IntStream.range(0, 2_000)
            .mapToObj(i -> "org_id = " + (i * 2))
            .collect(java.util.stream.Collectors.joining(" OR "));
    assertThat(pruner(where, spec).prune(file(spec, 3_998L))).isEqualTo(MIGHT_MATCH);
    assertThat(pruner(where, spec).prune(file(spec, 7L))).isEqualTo(CANNOT_MATCH);
  }

  private static FilePruner pruner(String where, PartitionSpec spec) {
    return FilePruner.of(plan(where, SCHEMA), SCHEMA, Map.of(spec.specId(), spec));
  }

  static QueryPlan plan(String where, Schema schema) {
    SqlPlanner planner =
        new SqlPlanner(
            TableSchemaProvider.of(IcebergSchemas.toBoundTable(TableName.of("t"), schema)));
    return planner.plan("SELECT COUNT(*) FROM t" + (where == null ? "" : " WHERE " + where));
  }

  private static DataFileInfo file(PartitionSpec spec, Object... values) {
    return new DataFileInfo(
        "s3://lake/t/data/f.parquet",
        org.apache.iceberg.FileFormat.PARQUET,
        org.apache.iceberg.FileContent.DATA,
        1000,
        100,
        new FilePartition(spec.specId(), "", new ArrayList<>(Arrays.asList(values))),
        1,
        1,
        List.of());
  }

  private static DataFileInfo withBounds(Map<Integer, ColumnBounds> bounds) {
    return new DataFileInfo(
        "s3://lake/t/data/f.parquet",
        org.apache.iceberg.FileFormat.PARQUET,
        org.apache.iceberg.FileContent.DATA,
        1000,
        100,
        new FilePartition(0, "", List.of()),
        1,
        1,
        List.of(),
        bounds);
  }

  private static ColumnBounds bounds(long nulls, Object lower, Object upper) {
    return new ColumnBounds(
        OptionalLong.of(100),
        OptionalLong.of(nulls),
        OptionalLong.empty(),
        Optional.of(lower),
        Optional.of(upper));
  }
}
