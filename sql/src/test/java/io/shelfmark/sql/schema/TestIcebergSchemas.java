package io.shelfmark.sql.schema;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import io.shelfmark.sql.TestingTables;
import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.ListType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.UnsupportedType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

class TestIcebergSchemas {
  @Test
  void metricsTable() {
    BoundTable table = TestingTables.METRICS;

    assertThat(table.name().toString()).isEqualTo("obs.metrics");
    assertThat(table.columns())
        .containsExactly(
            new Column("org_id", PrimitiveType.LONG, false),
            new Column("metric", PrimitiveType.STRING, false),
            new Column("resolution", PrimitiveType.INT, false),
            new Column("logical_timestamp", PrimitiveType.LONG, false),
            new Column("sum_rollup", PrimitiveType.DOUBLE, true),
            new Column("latest_rollup", PrimitiveType.DOUBLE, true),
            new Column(
                "dimensions", new MapType(PrimitiveType.STRING, PrimitiveType.STRING), true));
  }

  @Test
  void everyType() {
    assertThat(TestingTables.TYPES.columns())
        .extracting(Column::type)
        .containsExactly(
            PrimitiveType.BOOLEAN,
            PrimitiveType.INT,
            PrimitiveType.LONG,
            PrimitiveType.FLOAT,
            PrimitiveType.DOUBLE,
            new DecimalType(10, 2),
            PrimitiveType.DATE,
            PrimitiveType.TIMESTAMP,
            PrimitiveType.TIMESTAMP_TZ,
            PrimitiveType.STRING,
            PrimitiveType.BINARY,
            new ListType(PrimitiveType.LONG),
            new MapType(PrimitiveType.STRING, PrimitiveType.LONG),
            new UnsupportedType("struct<18: inner: optional int>"),
            PrimitiveType.INT,
            PrimitiveType.INT,
            PrimitiveType.STRING);
  }

  @Test
  void typesShelfmarkCannotReadStayAsUnsupportedColumns() {
    Schema schema =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "uuid_col", Types.UUIDType.get()),
            optional(3, "time_col", Types.TimeType.get()),
            optional(
                4,
                "int_keys",
                Types.MapType.ofOptional(5, 6, Types.IntegerType.get(), Types.StringType.get())),
            optional(
                7,
                "nested_list",
                Types.ListType.ofOptional(
                    8, Types.ListType.ofOptional(9, Types.IntegerType.get()))),
            optional(10, "fixed_col", Types.FixedType.ofLength(16)),
            optional(11, "ts_nanos", Types.TimestampNanoType.withoutZone()));

    BoundTable table = IcebergSchemas.toBoundTable(TableName.of("t"), schema);

    assertThat(table.columns())
        .extracting(column -> column.type().displayName())
        .containsExactly(
            "LONG",
            "uuid",
            "time",
            "map<int, string>",
            "list<list<int>>",
            "BINARY",
            "timestamp_ns");
  }

  @Test
  void lookupIsExactOrIgnoringCase() {
    BoundTable table = TestingTables.TYPES;

    assertThat(table.column("Mixed")).map(Column::name).contains("Mixed");
    assertThat(table.column("MIXED")).isEmpty();
    assertThat(table.columnsIgnoreCase("MIXED"))
        .extracting(Column::name)
        .containsExactly("Mixed", "mixed");
  }
}
