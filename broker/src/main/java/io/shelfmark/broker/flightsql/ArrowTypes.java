package io.shelfmark.broker.flightsql;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Shelfmark's SQL types as Arrow types, exactly (where Pinot's type names of the HTTP answer blur
 * them):
 *
 * <pre>
 * SQL type        Arrow type
 * BOOLEAN         Bool
 * INT             Int(32, signed)
 * LONG            Int(64, signed)            (SQL BIGINT)
 * FLOAT           FloatingPoint(SINGLE)
 * DOUBLE          FloatingPoint(DOUBLE)
 * DECIMAL(p,s)    Decimal(p, s, 128)
 * DATE            Date(DAY)
 * TIMESTAMP       Timestamp(MICROSECOND)     no zone (Iceberg timestamp)
 * TIMESTAMP_TZ    Timestamp(MICROSECOND, "UTC")
 * STRING          Utf8
 * BINARY          Binary
 * MAP(STRING, T)  Map(entries: struct(key Utf8 not null, value T))
 * </pre>
 *
 * Every result column is nullable: aggregates of no rows and outer values are null.
 */
public final class ArrowTypes {
  private ArrowTypes() {}

  /** The Arrow schema of result columns {@code names} of SQL types {@code types}. */
  public static Schema schema(List<String> names, List<SqlType> types) {
    if (names.size() != types.size()) {
      throw new IllegalArgumentException(
          "Cannot build an Arrow schema of %d names and %d types"
              .formatted(names.size(), types.size()));
    }
    List<Field> fields = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      fields.add(field(names.get(i), types.get(i)));
    }
    return new Schema(fields);
  }

  /** A nullable field of {@code type}. */
  public static Field field(String name, SqlType type) {
    if (type instanceof MapType map) {
      Field key = new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null);
      Field value = field("value", map.valueType());
      Field entries =
          new Field(
              "entries", FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
      return new Field(name, FieldType.nullable(new ArrowType.Map(false)), List.of(entries));
    }
    return new Field(name, FieldType.nullable(arrowType(type)), null);
  }

  /** The Arrow type of a scalar SQL type. */
  public static ArrowType arrowType(SqlType type) {
    if (type instanceof DecimalType decimal) {
      return new ArrowType.Decimal(decimal.precision(), decimal.scale(), 128);
    }
    if (!(type instanceof PrimitiveType primitive)) {
      throw new IllegalArgumentException(
          "Cannot give SQL type " + type.displayName() + " an Arrow type: it is not a scalar");
    }
    return switch (primitive) {
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case INT -> new ArrowType.Int(32, true);
      case LONG -> new ArrowType.Int(64, true);
      case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case TIMESTAMP -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case TIMESTAMP_TZ -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
      case STRING -> ArrowType.Utf8.INSTANCE;
      case BINARY -> ArrowType.Binary.INSTANCE;
    };
  }

  /** The JDBC type name DBeaver and {@code getColumns} show for a SQL type. */
  public static String jdbcTypeName(SqlType type) {
    if (type instanceof DecimalType decimal) {
      return "DECIMAL(" + decimal.precision() + "," + decimal.scale() + ")";
    }
    if (type instanceof MapType) {
      return "MAP";
    }
    if (!(type instanceof PrimitiveType primitive)) {
      return type.displayName();
    }
    return switch (primitive) {
      case LONG -> "BIGINT";
      case STRING -> "VARCHAR";
      case BINARY -> "VARBINARY";
      case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
      default -> primitive.name();
    };
  }
}
