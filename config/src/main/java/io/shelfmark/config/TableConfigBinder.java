package io.shelfmark.config;

import com.google.common.collect.Sets;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.DictionaryPagesConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.StarTreeConfig;
import io.shelfmark.config.table.StarTreeDimensionConfig;
import io.shelfmark.config.table.StarTreeFunction;
import io.shelfmark.config.table.TableConfig;
import io.shelfmark.config.table.TableIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@link TableConfig} from a parsed file, checking every key and the rules between keys.
 * Answers empty when any violation was found; the violations are in the context.
 */
final class TableConfigBinder {
  static final String TABLE = "table";
  static final String CATALOG = "catalog";
  static final String NAMESPACE = "namespace";
  static final String NAME = "name";
  static final String TIME_COLUMN = "time-column";
  static final String COLUMNS = "columns";
  static final String INDEXES = "indexes";
  static final String MAP_KEYS = "map-keys";
  static final String KEYS = "keys";
  static final String AUTO = "auto";
  static final String MIN_SHARE = "min-share";
  static final String REPLICATION = "replication";
  static final String REFRESH_INTERVAL = "refresh-interval";
  static final String DICTIONARY_PAGES = "dictionary-pages";
  static final String MAX_SIZE = "max-size";
  static final String MAX_SHARE = "max-share";
  static final String STAR_TREES = "star-trees";
  static final String DIMENSIONS = "dimensions";
  static final String FUNCTIONS = "functions";
  static final String MAX_LEAF_RECORDS = "max-leaf-records";
  static final String MIN_ROWS_PER_RECORD = "min-rows-per-record";
  static final String SKIP_STAR_NODE_DIMENSIONS = "skip-star-node-dimensions";

  private TableConfigBinder() {}

  static Optional<TableConfig> bind(ConfigNode root) {
    BindContext context = root.context();
    Optional<TableIdentity> identity = bindIdentity(root);
    Optional<String> timeColumn =
        root.string(TIME_COLUMN, text -> !text.isBlank(), "expected a column name");
    Map<String, ColumnConfig> columns = bindColumns(root);
    Map<String, MapKeySelection> mapKeys = bindMapKeys(root);
    int replication =
        root.integer(REPLICATION, 1, TableConfig.MAX_REPLICATION)
            .orElse(TableConfig.DEFAULT_REPLICATION);
    Duration refreshInterval =
        root.duration(REFRESH_INTERVAL, TableConfig.MIN_REFRESH_INTERVAL)
            .orElse(TableConfig.DEFAULT_REFRESH_INTERVAL);
    DictionaryPagesConfig dictionaryPages = bindDictionaryPages(root.section(DICTIONARY_PAGES));
    List<StarTreeConfig> starTrees = bindStarTrees(root);
    root.finish();
    if (context.hasViolations()) {
      return Optional.empty();
    }
    return Optional.of(
        new TableConfig(
            identity.orElseThrow(),
            timeColumn,
            columns,
            mapKeys,
            replication,
            refreshInterval,
            dictionaryPages,
            starTrees));
  }

  private static DictionaryPagesConfig bindDictionaryPages(ConfigNode section) {
    return new DictionaryPagesConfig(
        section.dataSize(MAX_SIZE).orElse(DictionaryPagesConfig.DEFAULT_MAX_SIZE),
        section.number(MAX_SHARE, 0, 1).orElse(DictionaryPagesConfig.DEFAULT_MAX_SHARE),
        section.sequence(
            COLUMNS,
            "expected the columns whose dictionary pages the segments may keep, such as"
                + " [sum_rollup, latest_rollup]"));
  }

  private static List<StarTreeConfig> bindStarTrees(ConfigNode root) {
    List<StarTreeConfig> trees = new ArrayList<>();
    String hint =
        "expected a list of sections such as [{dimensions: [metric, \"dimensions['service']\"],"
            + " functions: [\"COUNT(*)\", \"SUM(sum_rollup)\"]}]";
    for (ConfigNode tree : root.sectionList(STAR_TREES, hint)) {
      bindStarTree(tree).ifPresent(trees::add);
    }
    return trees;
  }

  private static Optional<StarTreeConfig> bindStarTree(ConfigNode tree) {
    tree.require(
        DIMENSIONS,
        "the dimensions in split order: columns, map keys such as dimensions['service'] or time"
            + " buckets such as dateTrunc('minute', logical_timestamp)");
    tree.require(FUNCTIONS, "the function-column pairs, such as [\"COUNT(*)\", \"SUM(x)\"]");
    boolean valid = true;
    List<StarTreeDimensionConfig> dimensions = new ArrayList<>();
    Optional<List<String>> dimensionTexts =
        tree.sequence(DIMENSIONS, "expected a list of dimensions");
    for (String text : dimensionTexts.orElse(List.of())) {
      Optional<StarTreeDimensionConfig> dimension = StarTreeDimensionConfig.parse(text);
      if (dimension.isEmpty()) {
        tree.reject(
            DIMENSIONS,
            text
                + " is not a dimension (use a column name, map['key'] or dateTrunc('unit',"
                + " column) with unit second, minute, hour or day)");
        valid = false;
      } else if (dimensions.stream().anyMatch(d -> d.text().equals(dimension.get().text()))) {
        tree.reject(DIMENSIONS, text + " is repeated");
        valid = false;
      } else {
        dimensions.add(dimension.get());
      }
    }
    List<StarTreeFunction> functions = new ArrayList<>();
    for (String text : tree.sequence(FUNCTIONS, "expected a list of functions").orElse(List.of())) {
      Optional<StarTreeFunction> function = StarTreeFunction.parse(text);
      if (function.isEmpty()) {
        tree.reject(
            FUNCTIONS,
            text
                + " is not a function-column pair (use COUNT(*), COUNT(x), SUM(x), MIN(x), MAX(x),"
                + " AVG(x), DISTINCTCOUNTHLL(x))");
        valid = false;
      } else if (!functions.contains(function.get())) {
        functions.add(function.get());
      }
    }
    int maxLeafRecords =
        tree.integer(MAX_LEAF_RECORDS, 1, Integer.MAX_VALUE)
            .orElse(StarTreeConfig.DEFAULT_MAX_LEAF_RECORDS);
    int minRowsPerRecord =
        tree.integer(MIN_ROWS_PER_RECORD, 1, Integer.MAX_VALUE)
            .orElse(StarTreeConfig.DEFAULT_MIN_ROWS_PER_RECORD);
    List<String> skip =
        tree.sequence(SKIP_STAR_NODE_DIMENSIONS, "expected a list of the tree's dimensions")
            .orElse(List.of());
    List<String> skipped = new ArrayList<>();
    for (String text : skip) {
      Optional<StarTreeDimensionConfig> dimension = StarTreeDimensionConfig.parse(text);
      if (dimension.isEmpty() || !dimensions.contains(dimension.get())) {
        tree.reject(
            SKIP_STAR_NODE_DIMENSIONS,
            text + " is not one of the tree's dimensions (" + texts(dimensions) + ")");
        valid = false;
      } else {
        skipped.add(dimension.get().text());
      }
    }
    if (!valid || dimensions.isEmpty() || functions.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new StarTreeConfig(dimensions, functions, maxLeafRecords, minRowsPerRecord, skipped));
  }

  private static String texts(List<StarTreeDimensionConfig> dimensions) {
    List<String> texts = new ArrayList<>();
    dimensions.forEach(d -> texts.add(d.text()));
    return String.join(", ", texts);
  }

  private static Optional<TableIdentity> bindIdentity(ConfigNode root) {
    root.require(
        TABLE, "the Iceberg table: table.namespace and table.name, such as obs and metrics");
    ConfigNode table = root.section(TABLE);
    String catalog =
        table
            .string(CATALOG, text -> !text.isBlank(), "expected the catalog's name")
            .orElse(TableIdentity.DEFAULT_CATALOG);
    Optional<String> namespace =
        table.string(NAMESPACE, text -> !text.isBlank(), "expected a namespace such as obs");
    Optional<String> name =
        table.string(NAME, text -> !text.isBlank(), "expected a table name such as metrics");
    if (root.isSection(TABLE)) {
      table.require(NAMESPACE, "the table's Iceberg namespace, such as obs");
      table.require(NAME, "the table's name within its namespace, such as metrics");
    }
    if (namespace.isEmpty() || name.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new TableIdentity(catalog, namespace.get(), name.get()));
  }

  private static Map<String, ColumnConfig> bindColumns(ConfigNode root) {
    Map<String, ColumnConfig> columns = new LinkedHashMap<>();
    String hint = "expected a section with indexes, such as {indexes: [inverted]}";
    for (Map.Entry<String, ConfigNode> entry : root.namedSections(COLUMNS, hint).entrySet()) {
      ConfigNode column = entry.getValue();
      column.require(INDEXES, "the indexes to build: inverted, range, sorted, bloom or forward");
      column
          .choices(INDEXES, IndexKind.values(), IndexKind::configName)
          .ifPresent(
              kinds -> columns.put(entry.getKey(), new ColumnConfig(Sets.immutableEnumSet(kinds))));
    }
    return columns;
  }

  private static Map<String, MapKeySelection> bindMapKeys(ConfigNode root) {
    Map<String, MapKeySelection> mapKeys = new LinkedHashMap<>();
    String hint = "expected a section such as {keys: [node, service]} or {auto: true}";
    for (Map.Entry<String, ConfigNode> entry : root.namedSections(MAP_KEYS, hint).entrySet()) {
      bindMapKeySelection(entry.getValue())
          .ifPresent(selection -> mapKeys.put(entry.getKey(), selection));
    }
    return mapKeys;
  }

  private static Optional<MapKeySelection> bindMapKeySelection(ConfigNode column) {
    Optional<List<String>> keys =
        column.strings(KEYS, "expected a list of map keys such as [node, service]");
    Optional<Boolean> auto = column.bool(AUTO);
    Optional<Double> minShare = column.number(MIN_SHARE, 0, 1);
    boolean isAuto = auto.orElse(false);
    String section = column.path();
    if (column.isSet(KEYS) && isAuto) {
      column
          .context()
          .add(
              section,
              "Cannot use "
                  + section
                  + ": both keys and auto: true (use exactly one: keys: [node, service] or auto:"
                  + " true)");
      return Optional.empty();
    }
    if (!column.isSet(KEYS) && !column.isSet(AUTO)) {
      column
          .context()
          .add(
              section,
              "Cannot use "
                  + section
                  + ": neither keys nor auto is set (use exactly one: keys: [node, service] or"
                  + " auto: true)");
      return Optional.empty();
    }
    if (column.isSet(MIN_SHARE) && !isAuto) {
      column.reject(MIN_SHARE, "only with auto: true");
      return Optional.empty();
    }
    if (isAuto) {
      return minShare
          .map(share -> (MapKeySelection) new MapKeySelection.Auto(share))
          .or(
              () ->
                  column.isSet(MIN_SHARE)
                      ? Optional.empty()
                      : Optional.of(new MapKeySelection.Auto(MapKeySelection.DEFAULT_MIN_SHARE)));
    }
    if (auto.isPresent() && !column.isSet(KEYS)) {
      // auto: false alone selects nothing, which the user cannot have meant.
      column.reject(
          AUTO, "auto: false needs keys: [...] instead; use exactly one of keys or auto: true");
      return Optional.empty();
    }
    return keys.map(MapKeySelection.Listed::new);
  }
}
