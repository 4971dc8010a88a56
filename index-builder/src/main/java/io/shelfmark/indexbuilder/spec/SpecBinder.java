package io.shelfmark.indexbuilder.spec;

import io.shelfmark.config.Violation;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.StarTreeConfig;
import io.shelfmark.config.table.StarTreeDimensionConfig;
import io.shelfmark.config.table.StarTreeFunction;
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
    List<StarTreeSpec> starTrees = new ArrayList<>();
    for (int i = 0; i < config.starTrees().size(); i++) {
      bindStarTree("star-trees[" + i + "]", config.starTrees().get(i)).ifPresent(starTrees::add);
    }
    return new SegmentSpec(
        config.identity().qualifiedName(),
        columns,
        maps,
        statistics,
        SegmentSpec.DEFAULT_FORWARD_MAX_CARDINALITY,
        SegmentSpec.DEFAULT_KEY_INVERTED_MIN_DOCS_PER_VALUE,
        bindDictionaryPages(config.dictionaryPages()),
        starTrees);
  }

  private DictionaryPagesSpec bindDictionaryPages(DictionaryPagesConfig config) {
    Optional<List<DictionaryPagesSpec.Column>> columns =
        config
            .columns()
            .map(
                names -> {
                  List<DictionaryPagesSpec.Column> found = new ArrayList<>();
                  for (String name : names) {
                    topLevel("dictionary-pages.columns", name)
                        .ifPresent(
                            field ->
                                found.add(
                                    new DictionaryPagesSpec.Column(field.name(), field.fieldId())));
                  }
                  return found;
                });
    return new DictionaryPagesSpec(config.maxSize().bytes(), config.maxShare(), columns);
  }

  private Optional<StarTreeSpec> bindStarTree(String path, StarTreeConfig tree) {
    boolean valid = true;
    String dimensionsKey = path + ".dimensions";
    List<StarTreeSpec.Dimension> dimensions = new ArrayList<>();
    for (StarTreeDimensionConfig dimension : tree.dimensions()) {
      Optional<StarTreeSpec.Dimension> bound = bindDimension(dimensionsKey, dimension);
      bound.ifPresent(dimensions::add);
      valid &= bound.isPresent();
    }
    String functionsKey = path + ".functions";
    List<StarTreeSpec.Metric> metrics = new ArrayList<>();
    List<StarTreeSpec.Sketch> sketches = new ArrayList<>();
    for (StarTreeFunction function : tree.functions()) {
      if (function.function() == StarTreeFunction.Function.DISTINCTCOUNTHLL) {
        Optional<StarTreeSpec.Sketch> sketch = bindSketch(functionsKey, function);
        sketch.ifPresent(sketches::add);
        valid &= sketch.isPresent();
        continue;
      }
      if (function.column().isEmpty()) {
        continue;
      }
      String column = function.column().get();
      if (metrics.stream().anyMatch(metric -> metric.column().equals(column))) {
        continue;
      }
      Optional<Types.NestedField> found = topLevel(functionsKey, column);
      if (found.isEmpty()) {
        valid = false;
        continue;
      }
      Type type = found.get().type();
      ValueType valueType =
          switch (type.typeId()) {
            case INTEGER, LONG -> ValueType.LONG;
            case FLOAT, DOUBLE -> ValueType.DOUBLE;
            default -> null;
          };
      if (valueType == null) {
        violations.add(
            violation(
                functionsKey,
                "%s: %s is %s; star-tree functions take int, long, float or double columns",
                function.text(),
                column,
                type));
        valid = false;
        continue;
      }
      boolean extremes =
          tree.functions().stream()
              .anyMatch(
                  f ->
                      f.column().equals(function.column())
                          && (f.function() == StarTreeFunction.Function.MIN
                              || f.function() == StarTreeFunction.Function.MAX));
      metrics.add(new StarTreeSpec.Metric(column, found.get().fieldId(), valueType, extremes));
    }
    Set<Integer> skip = new LinkedHashSet<>();
    for (String text : tree.skipStarNodeDimensions()) {
      for (int d = 0; d < tree.dimensions().size(); d++) {
        if (tree.dimensions().get(d).text().equals(text)) {
          skip.add(d);
        }
      }
    }
    return valid
        ? Optional.of(
            new StarTreeSpec(
                dimensions,
                metrics,
                sketches,
                tree.maxLeafRecords(),
                tree.minRowsPerRecord(),
                skip))
        : Optional.empty();
  }

  /**
   * A DISTINCTCOUNTHLL pair's column: an int, long, float, double or string column, whose values
   * the tree hashes as the SQL function does.
   */
  private Optional<StarTreeSpec.Sketch> bindSketch(String key, StarTreeFunction function) {
    String column = function.column().orElseThrow();
    Optional<Types.NestedField> found = topLevel(key, column);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Type type = found.get().type();
    ValueType valueType =
        switch (type.typeId()) {
          case INTEGER, LONG -> ValueType.LONG;
          case FLOAT, DOUBLE -> ValueType.DOUBLE;
          case STRING -> ValueType.STRING;
          default -> null;
        };
    if (valueType == null) {
      violations.add(
          violation(
              key,
              "%s: %s is %s; a star-tree's DISTINCTCOUNTHLL takes int, long, float, double or"
                  + " string columns (leave it out: such queries are answered from the rows)",
              function.text(),
              column,
              type));
      return Optional.empty();
    }
    return Optional.of(new StarTreeSpec.Sketch(column, found.get().fieldId(), valueType));
  }

  private Optional<StarTreeSpec.Dimension> bindDimension(
      String key, StarTreeDimensionConfig dimension) {
    Optional<Types.NestedField> found = topLevel(key, dimension.column());
    if (found.isEmpty()) {
      return Optional.empty();
    }
    Types.NestedField field = found.get();
    Type type = field.type();
    String text = dimension.text();
    switch (dimension) {
      case StarTreeDimensionConfig.Column column -> {
        Optional<ValueType> valueType =
            switch (type.typeId()) {
              case BOOLEAN, INTEGER, LONG, DATE, TIMESTAMP -> Optional.of(ValueType.LONG);
              case FLOAT, DOUBLE -> Optional.of(ValueType.DOUBLE);
              case STRING -> Optional.of(ValueType.STRING);
              default -> Optional.empty();
            };
        if (valueType.isEmpty()) {
          violations.add(
              violation(
                  key,
                  "%s is %s; a star-tree dimension is a boolean, int, long, date, timestamp,"
                      + " float, double or string column%s",
                  text,
                  type,
                  type.isMapType() ? " (for a map, use " + text + "['key'])" : ""));
          return Optional.empty();
        }
        return Optional.of(
            new StarTreeSpec.Dimension(
                text, column.column(), field.fieldId(), valueType.get(), Optional.empty(), 0));
      }
      case StarTreeDimensionConfig.MapKey mapKey -> {
        MapKeySelection selection = config.mapKeys().get(mapKey.column());
        if (!type.isMapType()
            || type.asMapType().keyType().typeId() != Type.TypeID.STRING
            || type.asMapType().valueType().typeId() != Type.TypeID.STRING) {
          violations.add(
              violation(
                  key, "%s: %s is %s, not a map<string, string>", text, mapKey.column(), type));
          return Optional.empty();
        }
        if (selection == null
            || (selection instanceof MapKeySelection.Listed listed
                && !listed.keys().contains(mapKey.key()))) {
          violations.add(
              violation(
                  key,
                  "%s: the key %s is not extracted (add it to map-keys.%s.keys)",
                  text,
                  mapKey.key(),
                  mapKey.column()));
          return Optional.empty();
        }
        return Optional.of(
            new StarTreeSpec.Dimension(
                text,
                mapKey.column(),
                field.fieldId(),
                ValueType.STRING,
                Optional.of(mapKey.key()),
                0));
      }
      case StarTreeDimensionConfig.TimeBucket bucket -> {
        long unitMillis =
            switch (bucket.unit()) {
              case SECOND -> 1_000L;
              case MINUTE -> 60_000L;
              case HOUR -> 3_600_000L;
              case DAY -> 86_400_000L;
            };
        long width =
            switch (type.typeId()) {
              case LONG -> unitMillis;
              case TIMESTAMP -> unitMillis * 1000;
              default -> 0;
            };
        if (width == 0) {
          violations.add(
              violation(
                  key,
                  "%s: %s is %s; time buckets take a long column of epoch millis or a timestamp",
                  text,
                  bucket.column(),
                  type));
          return Optional.empty();
        }
        return Optional.of(
            new StarTreeSpec.Dimension(
                text, bucket.column(), field.fieldId(), ValueType.LONG, Optional.empty(), width));
      }
    }
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
