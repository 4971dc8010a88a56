package io.shelfmark.indexbuilder.spec;

import io.shelfmark.config.Violation;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.segment.index.forward.ForwardIndexType;
import io.shelfmark.segment.index.inverted.InvertedIndexType;
import io.shelfmark.segment.spi.ValueType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Checks a table config against a schema and collects the spec: one pass, every violation kept with
 * its key path. Not thread safe; one use.
 */
final class SpecBinder {
  /** What every extracted map key gets: equality through the inverted index, GROUP BY forward. */
  static final Set<String> MAP_KEY_INDEXES = Set.of(InvertedIndexType.ID, ForwardIndexType.ID);

  private final TableConfig config;
  private final Schema schema;
  private final List<Violation> violations = new ArrayList<>();

  SpecBinder(TableConfig config, Schema schema) {
    this.config = config;
    this.schema = schema;
  }

  List<Violation> violations() {
    return List.copyOf(violations);
  }

  SegmentSpec bind() {
    List<ColumnSpec> columns = new ArrayList<>();
    for (Map.Entry<String, ColumnConfig> entry : config.columns().entrySet()) {
      bindColumn(entry.getKey(), entry.getValue()).ifPresent(columns::add);
    }
    List<MapColumnSpec> maps = new ArrayList<>();
    for (Map.Entry<String, MapKeySelection> entry : config.mapKeys().entrySet()) {
      bindMap(entry.getKey(), entry.getValue()).ifPresent(maps::add);
    }
    List<StatisticsColumnSpec> statistics = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      if (!config.columns().containsKey(field.name())
          && !config.mapKeys().containsKey(field.name())
          && field.type().isPrimitiveType()) {
        IcebergTypes.valueType(field.type())
            .ifPresent(
                type ->
                    statistics.add(new StatisticsColumnSpec(field.name(), field.fieldId(), type)));
      }
    }
    return new SegmentSpec(
        config.identity().qualifiedName(),
        columns,
        maps,
        statistics,
        SegmentSpec.DEFAULT_FORWARD_MAX_CARDINALITY,
        SegmentSpec.DEFAULT_KEY_INVERTED_MIN_DOCS_PER_VALUE,
        config.dictionaryPagesMaxSize().bytes());
  }

  private Optional<ColumnSpec> bindColumn(String column, ColumnConfig columnConfig) {
    String key = "columns." + column + ".indexes";
    Optional<Types.NestedField> found = topLevel(key, column);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Types.NestedField field = found.get();
    Type type = field.type();
    if (!type.isPrimitiveType()) {
      violations.add(
          violation(
              key,
              "%s is %s; only primitive columns take indexes%s",
              column,
              type,
              type.isMapType() ? " (for a map, extract keys with map-keys." + column + ")" : ""));
      return Optional.empty();
    }
    Optional<ValueType> valueType = IcebergTypes.valueType(type);
    if (valueType.isEmpty()) {
      violations.add(
          violation(key, "%s is %s: %s", column, type, IcebergTypes.whyNotIndexed(type)));
      return Optional.empty();
    }
    Set<String> ids = new LinkedHashSet<>();
    boolean valid = true;
    for (IndexKind kind : columnConfig.indexes()) {
      if (kind == IndexKind.RANGE && !IcebergTypes.isOrderedNumber(type)) {
        violations.add(
            violation(
                key,
                "a range index needs a numeric or timestamp column; %s is %s (use inverted for"
                    + " equality and IN)",
                column,
                type));
        valid = false;
        continue;
      }
      ids.add(kind.configName());
    }
    return valid
        ? Optional.of(
            new ColumnSpec(column, field.fieldId(), valueType.get(), type.toString(), ids))
        : Optional.empty();
  }

  private Optional<MapColumnSpec> bindMap(String column, MapKeySelection selection) {
    String key = "map-keys." + column;
    Optional<Types.NestedField> found = topLevel(key, column);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Types.NestedField field = found.get();
    if (config.columns().containsKey(column)) {
      // Reported once, under columns.<column>.indexes, by bindColumn.
      return Optional.empty();
    }
    if (!field.type().isMapType()) {
      violations.add(
          violation(
              key,
              "%s is %s, not a map (keys can only be extracted from map<string, string> columns)",
              column,
              field.type()));
      return Optional.empty();
    }
    Types.MapType map = field.type().asMapType();
    if (map.keyType().typeId() != Type.TypeID.STRING
        || map.valueType().typeId() != Type.TypeID.STRING) {
      violations.add(
          violation(
              key,
              "%s is %s; keys are extracted from map<string, string> columns only",
              column,
              map));
      return Optional.empty();
    }
    io.shelfmark.segment.index.mapkey.MapKeySelection segmentSelection =
        switch (selection) {
          case MapKeySelection.Listed listed ->
              new io.shelfmark.segment.index.mapkey.MapKeySelection.Listed(listed.keys());
          case MapKeySelection.Auto auto ->
              new io.shelfmark.segment.index.mapkey.MapKeySelection.Auto(auto.minShare());
        };
    return Optional.of(
        new MapColumnSpec(column, field.fieldId(), segmentSelection, MAP_KEY_INDEXES));
  }

  /** The top-level field named {@code column}, or empty after recording why there is none. */
  private Optional<Types.NestedField> topLevel(String key, String column) {
    Types.NestedField field = schema.asStruct().field(column);
    if (field != null) {
      return Optional.of(field);
    }
    if (schema.findField(column) != null) {
      violations.add(
          violation(key, "%s is a nested field; only top-level columns are indexed yet", column));
      return Optional.empty();
    }
    List<String> names = new ArrayList<>();
    for (Types.NestedField top : schema.columns()) {
      names.add(top.name());
    }
    violations.add(
        violation(
            key, "the table has no column %s (columns: %s)", column, String.join(", ", names)));
    return Optional.empty();
  }

  private static Violation violation(String key, String format, Object... arguments) {
    return new Violation(key, "Cannot use " + key + ": " + format.formatted(arguments));
  }
}
