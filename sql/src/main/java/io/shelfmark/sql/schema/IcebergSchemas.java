package io.shelfmark.sql.schema;

import static java.util.Objects.requireNonNull;

import io.shelfmark.sql.type.DecimalType;
import io.shelfmark.sql.type.ListType;
import io.shelfmark.sql.type.MapType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import io.shelfmark.sql.type.UnsupportedType;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Converts an Iceberg schema to the planner's {@link BoundTable}. Every top-level field becomes a
 * column; a field whose type Shelfmark cannot read becomes a column of {@link UnsupportedType}, so
 * that naming it in a query says why it cannot be used.
 */
public final class IcebergSchemas {
  private IcebergSchemas() {}

  public static BoundTable toBoundTable(TableName name, Schema schema) {
    requireNonNull(name, "name is null");
    requireNonNull(schema, "schema is null");
    List<Column> columns = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      columns.add(new Column(field.name(), toSqlType(field.type()), field.isOptional()));
    }
    return new BoundTable(name, columns);
  }

  /**
   * The SQL type of an Iceberg type: primitives map one to one (fixed and binary to BINARY, both
   * timestamps keep microseconds), MAP needs STRING keys and primitive values, LIST primitive
   * elements. Anything else is an {@link UnsupportedType} naming the Iceberg type.
   */
  public static SqlType toSqlType(Type type) {
    requireNonNull(type, "type is null");
    return switch (type.typeId()) {
      case BOOLEAN -> PrimitiveType.BOOLEAN;
      case INTEGER -> PrimitiveType.INT;
      case LONG -> PrimitiveType.LONG;
      case FLOAT -> PrimitiveType.FLOAT;
      case DOUBLE -> PrimitiveType.DOUBLE;
      case DATE -> PrimitiveType.DATE;
      case TIMESTAMP ->
          ((Types.TimestampType) type).shouldAdjustToUTC()
              ? PrimitiveType.TIMESTAMP_TZ
              : PrimitiveType.TIMESTAMP;
      case STRING -> PrimitiveType.STRING;
      case BINARY, FIXED -> PrimitiveType.BINARY;
      case DECIMAL -> {
        Types.DecimalType decimal = (Types.DecimalType) type;
        yield new DecimalType(decimal.precision(), decimal.scale());
      }
      case MAP -> mapType((Types.MapType) type);
      case LIST -> listType((Types.ListType) type);
      default -> new UnsupportedType(type.toString());
    };
  }

  private static SqlType mapType(Types.MapType map) {
    SqlType key = toSqlType(map.keyType());
    SqlType value = toSqlType(map.valueType());
    if (key != PrimitiveType.STRING || !value.isPrimitive()) {
      return new UnsupportedType(map.toString());
    }
    return new MapType(key, value);
  }

  private static SqlType listType(Types.ListType list) {
    SqlType element = toSqlType(list.elementType());
    return element.isPrimitive() ? new ListType(element) : new UnsupportedType(list.toString());
  }
}
