package io.shelfmark.cli.node.warmup;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.shelfmark.config.table.ColumnConfig;
import io.shelfmark.config.table.IndexKind;
import io.shelfmark.config.table.MapKeySelection;
import io.shelfmark.config.table.TableConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The queries a node warms up with, shaped after one table's indexes: counts filtered on each
 * indexed column and the time column (answered from indexes), aggregates of a few numeric columns
 * under all those filters (pages read and decoded), time-bucketed and map-key group-bys. Literals
 * come from one sampled row ({@link #sampleSql}), so the filters match rows and every step of the
 * query path runs, not only the empty-result short cuts.
 *
 * <p>The set does not depend on any user query: it exercises the code a table's queries go through
 * (SQL parsing, pruning, index evaluation, page reads, decoding, aggregation, merging, rendering).
 */
public final class WarmupQueries {
  /**
   * The time window of the filters: an hour either side of the sampled row, which is often the
   * first of its file (so an hour before it alone may hold nothing).
   */
  static final long WINDOW_MILLIS = 3_600_000L;

  /** Enough measures to cover the decoders of the table's common types without many reads. */
  private static final int MAX_MEASURES = 3;

  private final String table;
  private final Optional<String> timeColumn;
  private final List<String> filterColumns;
  private final List<String> measures;
  private final List<MapKey> mapKeys;

  /** A listed key of a MAP column, read as {@code column['key']}. */
  record MapKey(String column, String key) {
    String expression() {
      return quoteIdentifier(column) + "[" + quoteString(key) + "]";
    }
  }

  private WarmupQueries(
      String table,
      Optional<String> timeColumn,
      List<String> filterColumns,
      List<String> measures,
      List<MapKey> mapKeys) {
    this.table = table;
    this.timeColumn = timeColumn;
    this.filterColumns = filterColumns;
    this.measures = measures;
    this.mapKeys = mapKeys;
  }

  /**
   * The warm-up shape of {@code config}'s table.
   *
   * @param sqlName the table's name in SQL, such as {@code obs.metrics}
   */
  public static WarmupQueries of(String sqlName, TableConfig config, Schema schema) {
    requireNonNull(sqlName, "sqlName is null");
    requireNonNull(config, "config is null");
    requireNonNull(schema, "schema is null");
    Optional<String> time =
        config.timeColumn().filter(column -> isWholeNumber(type(schema, column)));
    List<String> filters = new ArrayList<>();
    for (Map.Entry<String, ColumnConfig> column : config.columns().entrySet()) {
      String name = column.getKey();
      Type type = type(schema, name);
      boolean equality =
          column.getValue().has(IndexKind.INVERTED)
              || column.getValue().has(IndexKind.SORTED)
              || column.getValue().has(IndexKind.BLOOM);
      if (equality && !name.equals(time.orElse(null)) && isLiteral(type)) {
        filters.add(name);
      }
    }
    List<String> measures = new ArrayList<>();
    for (Types.NestedField field : schema.columns()) {
      if (measures.size() < MAX_MEASURES
          && isNumber(field.type())
          && !filters.contains(field.name())
          && !field.name().equals(time.orElse(null))) {
        measures.add(field.name());
      }
    }
    List<MapKey> keys = new ArrayList<>();
    for (Map.Entry<String, MapKeySelection> map : config.mapKeys().entrySet()) {
      if (map.getValue() instanceof MapKeySelection.Listed listed
          && type(schema, map.getKey()) instanceof Types.MapType mapType
          && mapType.valueType().typeId() == Type.TypeID.STRING) {
        for (String key : listed.keys()) {
          keys.add(new MapKey(map.getKey(), key));
        }
      }
    }
    return new WarmupQueries(
        sqlName, time, List.copyOf(filters), List.copyOf(measures), List.copyOf(keys));
  }

  /** Whether there is anything to warm up with: at least one filter column or the time column. */
  public boolean isEmpty() {
    return filterColumns.isEmpty() && timeColumn.isEmpty();
  }

  /** The query that samples the row whose values the warm-up queries filter on. */
  public String sampleSql() {
    List<String> select = new ArrayList<>();
    for (String column : filterColumns) {
      select.add(quoteIdentifier(column));
    }
    timeColumn.ifPresent(column -> select.add(quoteIdentifier(column)));
    for (MapKey key : mapKeys) {
      select.add(key.expression());
    }
    return "SELECT " + String.join(", ", select) + " FROM " + table + " LIMIT 1";
  }

  /**
   * The warm-up queries, their literals taken from {@code sampleRow}: one row of {@link
   * #sampleSql}'s result (values in its select order). Columns whose sampled value is null are left
   * out of the filters.
   */
  public List<String> queries(JsonNode sampleRow) {
    requireNonNull(sampleRow, "sampleRow is null");
    Map<String, String> equalities = new LinkedHashMap<>();
    int position = 0;
    for (String column : filterColumns) {
      literal(sampleRow.path(position++))
          .ifPresent(value -> equalities.put(quoteIdentifier(column), value));
    }
    Optional<String> range = Optional.empty();
    if (timeColumn.isPresent()) {
      JsonNode time = sampleRow.path(position++);
      if (time.isIntegralNumber()) {
        String column = quoteIdentifier(timeColumn.get());
        long sampled = time.asLong();
        // Written as dashboards often write a window, an instant plus or minus a length: the
        // planner folds the arithmetic, a path a fresh JVM otherwise first runs on a user's query
        // (9 ms to plan such a text for the first time after 1,200 plans without arithmetic).
        range =
            Optional.of(
                column
                    + " >= "
                    + sampled
                    + " - "
                    + WINDOW_MILLIS
                    + " AND "
                    + column
                    + " <= "
                    + sampled
                    + " + "
                    + WINDOW_MILLIS);
      }
    }
    Map<MapKey, String> keyValues = new LinkedHashMap<>();
    for (MapKey key : mapKeys) {
      JsonNode value = sampleRow.path(position++);
      if (value.isTextual()) {
        keyValues.put(key, quoteString(value.asText()));
      }
    }

    List<String> all = new ArrayList<>(equalities.size() + 1);
    equalities.forEach((column, value) -> all.add(column + " = " + value));
    range.ifPresent(all::add);
    String allFilters = String.join(" AND ", all);
    String from = " FROM " + table + (all.isEmpty() ? "" : " WHERE " + allFilters);

    List<String> queries = new ArrayList<>();
    // Index-only counts: each indexed column alone with the time range, then all together.
    for (Map.Entry<String, String> equality : equalities.entrySet()) {
      String where = equality.getKey() + " = " + equality.getValue();
      queries.add(
          "SELECT COUNT(*) FROM "
              + table
              + " WHERE "
              + where
              + range.map(r -> " AND " + r).orElse(""));
    }
    queries.add("SELECT COUNT(*)" + from);
    // Aggregates that read and decode pages of each measure.
    for (String measure : measures) {
      String m = quoteIdentifier(measure);
      queries.add(
          "SELECT SUM(" + m + "), MIN(" + m + "), MAX(" + m + "), AVG(" + m + "), COUNT(*)" + from);
    }
    if (range.isPresent() && !measures.isEmpty()) {
      String time = quoteIdentifier(timeColumn.orElseThrow());
      String m = quoteIdentifier(measures.get(0));
      for (String unit : List.of("second", "minute")) {
        String bucket = "dateTrunc('" + unit + "', " + time + ")";
        queries.add(
            "SELECT "
                + bucket
                + " AS time_bucket, AVG("
                + m
                + ")"
                + from
                + " GROUP BY "
                + bucket
                + " ORDER BY time_bucket");
      }
    }
    if (!measures.isEmpty()) {
      String m = quoteIdentifier(measures.get(0));
      for (MapKey group : keyValues.keySet()) {
        for (Map.Entry<MapKey, String> filter : keyValues.entrySet()) {
          if (filter.getKey().equals(group)) {
            continue;
          }
          String where = filter.getKey().expression() + " = " + filter.getValue();
          queries.add(
              "SELECT "
                  + group.expression()
                  + " AS g, SUM("
                  + m
                  + ") AS total FROM "
                  + table
                  + " WHERE "
                  + (all.isEmpty() ? "" : allFilters + " AND ")
                  + where
                  + " GROUP BY "
                  + group.expression()
                  + " ORDER BY total DESC");
        }
      }
    }
    return List.copyOf(queries);
  }

  private static Type type(Schema schema, String column) {
    Types.NestedField field = schema.findField(column);
    return field == null ? null : field.type();
  }

  private static boolean isWholeNumber(Type type) {
    return type != null
        && (type.typeId() == Type.TypeID.LONG || type.typeId() == Type.TypeID.INTEGER);
  }

  private static boolean isNumber(Type type) {
    return isWholeNumber(type)
        || (type != null
            && (type.typeId() == Type.TypeID.DOUBLE || type.typeId() == Type.TypeID.FLOAT));
  }

  private static boolean isLiteral(Type type) {
    return isWholeNumber(type) || (type != null && type.typeId() == Type.TypeID.STRING);
  }

  /** A sampled value as a SQL literal: whole numbers and strings; anything else is left out. */
  private static Optional<String> literal(JsonNode value) {
    if (value.isIntegralNumber()) {
      return Optional.of(value.asText());
    }
    if (value.isTextual()) {
      return Optional.of(quoteString(value.asText()));
    }
    return Optional.empty();
  }

  static String quoteString(String value) {
    return "'" + value.replace("'", "''") + "'";
  }

  static String quoteIdentifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
