package io.shelfmark.sql;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import io.shelfmark.sql.schema.BoundTable;
import io.shelfmark.sql.schema.IcebergSchemas;
import io.shelfmark.sql.schema.TableName;
import io.shelfmark.sql.schema.TableSchemaProvider;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/** The tables planner tests query: the benchmark's obs.metrics and one column of every type. */
public final class TestingTables {
  /** BENCHMARK.md's table, as its Iceberg schema. */
  public static final Schema METRICS_SCHEMA =
      new Schema(
          required(1, "org_id", Types.LongType.get()),
          required(2, "metric", Types.StringType.get()),
          required(3, "resolution", Types.IntegerType.get()),
          required(4, "logical_timestamp", Types.LongType.get()),
          optional(5, "sum_rollup", Types.DoubleType.get()),
          optional(6, "latest_rollup", Types.DoubleType.get()),
          optional(
              7,
              "dimensions",
              Types.MapType.ofOptional(8, 9, Types.StringType.get(), Types.StringType.get())));

  /** Every type the planner knows, plus a struct it refuses and two names differing in case. */
  public static final Schema TYPES_SCHEMA =
      new Schema(
          optional(1, "bool_col", Types.BooleanType.get()),
          optional(2, "int_col", Types.IntegerType.get()),
          optional(3, "long_col", Types.LongType.get()),
          optional(4, "float_col", Types.FloatType.get()),
          optional(5, "double_col", Types.DoubleType.get()),
          optional(6, "decimal_col", Types.DecimalType.of(10, 2)),
          optional(7, "date_col", Types.DateType.get()),
          optional(8, "ts_col", Types.TimestampType.withoutZone()),
          optional(9, "tstz_col", Types.TimestampType.withZone()),
          optional(10, "string_col", Types.StringType.get()),
          optional(11, "binary_col", Types.BinaryType.get()),
          optional(12, "list_col", Types.ListType.ofOptional(13, Types.LongType.get())),
          optional(
              14,
              "metrics_map",
              Types.MapType.ofOptional(15, 16, Types.StringType.get(), Types.LongType.get())),
          optional(
              17,
              "struct_col",
              Types.StructType.of(optional(18, "inner", Types.IntegerType.get()))),
          optional(19, "Mixed", Types.IntegerType.get()),
          optional(20, "mixed", Types.IntegerType.get()),
          optional(21, "CamelCase", Types.StringType.get()));

  public static final BoundTable METRICS =
      IcebergSchemas.toBoundTable(TableName.of("obs", "metrics"), METRICS_SCHEMA);
  public static final BoundTable TYPES =
      IcebergSchemas.toBoundTable(TableName.of("test", "types"), TYPES_SCHEMA);

  public static final TableSchemaProvider PROVIDER = TableSchemaProvider.of(METRICS, TYPES);

  private TestingTables() {}

  public static SqlPlanner planner() {
    return new SqlPlanner(PROVIDER);
  }
}
