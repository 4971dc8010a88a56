package io.shelfmark.controller.table;

import static java.util.Objects.requireNonNull;

import io.shelfmark.config.Violation;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Checks a table config against the table's Iceberg schema at onboarding, so that an index choice
 * the table cannot honour (a range index on a string column, map keys on a column that is not a
 * map) is refused before any build starts. Reports every violation, each naming the config key, the
 * column's actual type and what is allowed.
 *
 * <p>Stateless and thread safe.
 */
public final class OnboardingValidator {

  /** Returns every violation of {@code config} against {@code schema}; empty when it fits. */
  public List<Violation> validate(TableConfig config, Schema schema) {
    requireNonNull(config, "config is null");
    requireNonNull(schema, "schema is null");
    List<Violation> violations = new ArrayList<>();
    config.timeColumn().ifPresent(column -> checkTimeColumn(column, schema, violations));
    for (Map.Entry<String, ColumnConfig> entry : config.columns().entrySet()) {
      checkColumn(entry.getKey(), entry.getValue(), schema, violations);
    }
    for (Map.Entry<String, MapKeySelection> entry : config.mapKeys().entrySet()) {
      checkMapColumn(entry.getKey(), schema, violations);
    }
    return List.copyOf(violations);
  }

  private static void checkTimeColumn(String column, Schema schema, List<Violation> violations) {
    Types.NestedField field = schema.findField(column);
    String key = "time-column";
    if (field == null) {
      violations.add(missing(key, column, schema));
      return;
    }
    Type.TypeID type = field.type().typeId();
    if (type != Type.TypeID.LONG && type != Type.TypeID.TIMESTAMP && type != Type.TypeID.DATE) {
      violations.add(
          new Violation(
              key,
              "Cannot use "
                  + key
                  + ": column \""
                  + column
                  + "\" is "
                  + field.type()
                  + " (allowed: long epoch millis, timestamp or date)"));
    }
  }

  private static void checkColumn(
      String column, ColumnConfig columnConfig, Schema schema, List<Violation> violations) {
    String key = "columns." + column + ".indexes";
    Types.NestedField field = schema.findField(column);
    if (field == null) {
      violations.add(missing(key, column, schema));
      return;
    }
    Type type = field.type();
    for (IndexKind kind : columnConfig.indexes()) {
      String allowed = allowedTypes(kind, type);
      if (allowed != null) {
        violations.add(
            new Violation(
                key,
                "Cannot use "
                    + key
                    + ": "
                    + kind.configName()
                    + " index on column \""
                    + column
                    + "\" of type "
                    + type
                    + " (allowed: "
                    + allowed
                    + ")"));
      }
    }
  }

  /** Returns null when {@code kind} fits {@code type}, otherwise the types it does fit. */
  private static String allowedTypes(IndexKind kind, Type type) {
    if (!type.isPrimitiveType()) {
      return "primitive columns; for a map use map-keys";
    }
    return switch (kind) {
      case RANGE ->
          switch (type.typeId()) {
            case INTEGER, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMP_NANO -> null;
            default -> "int, long, float, double, date, time and timestamp columns";
          };
      case INVERTED, SORTED, BLOOM, FORWARD ->
          switch (type.typeId()) {
            case BINARY, FIXED, VARIANT, UNKNOWN, GEOMETRY, GEOGRAPHY ->
                "boolean, numeric, decimal, date, time, timestamp, string and uuid columns";
            default -> null;
          };
    };
  }

  private static void checkMapColumn(String column, Schema schema, List<Violation> violations) {
    String key = "map-keys." + column;
    Types.NestedField field = schema.findField(column);
    if (field == null) {
      violations.add(missing(key, column, schema));
      return;
    }
    if (!field.type().isMapType()) {
      violations.add(
          new Violation(
              key,
              "Cannot use "
                  + key
                  + ": column \""
                  + column
                  + "\" is "
                  + field.type()
                  + ", not a map (map keys can only be extracted from map<string, ...> columns)"));
      return;
    }
    Types.MapType map = field.type().asMapType();
    if (map.keyType().typeId() != Type.TypeID.STRING || !map.valueType().isPrimitiveType()) {
      violations.add(
          new Violation(
              key,
              "Cannot use "
                  + key
                  + ": column \""
                  + column
                  + "\" is "
                  + map
                  + " (allowed: maps with string keys and primitive values)"));
    }
  }

  private static Violation missing(String key, String column, Schema schema) {
    List<String> names = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      names.add(field.name());
    }
    return new Violation(
        key,
        "Cannot use "
            + key
            + ": the table has no column \""
            + column
            + "\" (columns: "
            + String.join(", ", names)
            + ")");
  }
}
