package io.shelfmark.broker.http;

import io.shelfmark.broker.table.TableSchema;
import io.shelfmark.broker.table.TableStatus;
import io.shelfmark.exchange.result.ResultRendering;
import io.shelfmark.sql.schema.Column;
import io.shelfmark.sql.type.ListType;
import io.shelfmark.sql.type.PrimitiveType;
import io.shelfmark.sql.type.SqlType;
import io.shelfmark.sql.type.UnsupportedType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The controller documents Pinot's clients read about a table, built from what Shelfmark serves:
 * the schema ({@code GET /tables/{name}/schema}), the table config ({@code GET /tables/{name}}) and
 * its size ({@code GET /tables/{name}/metadata}). Only the fields those clients read are filled
 * with meaning; the rest of Pinot's documents is left out.
 */
final class PinotMetadata {
  /** Every served table is one Pinot "offline" table: read-only, no real-time ingestion. */
  static final String TABLE_TYPE = "OFFLINE";

  /** The one tenant Shelfmark reports, the name Pinot's clients use when given none. */
  static final String TENANT = "DefaultTenant";

  private PinotMetadata() {}

  /**
   * Pinot's schema: the table's time column in {@code dateTimeFieldSpecs} (with its format and
   * granularity), numeric columns in {@code metricFieldSpecs}, every other column in {@code
   * dimensionFieldSpecs}. Map columns are listed among the dimensions with Pinot's data type {@code
   * MAP}: pinotdb and the JDBC driver list only those three lists, so a map kept apart in {@code
   * complexFieldSpecs} would be missing from their column lists. Columns of a type Shelfmark cannot
   * query are left out.
   */
  static Map<String, Object> schema(TableSchema table) {
    List<Map<String, Object>> dimensions = new ArrayList<>();
    List<Map<String, Object>> metrics = new ArrayList<>();
    List<Map<String, Object>> dateTimes = new ArrayList<>();
    for (Column column : table.columns()) {
      Optional<String> dataType = dataType(column.type());
      if (dataType.isEmpty()) {
        continue;
      }
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("name", column.name());
      spec.put("dataType", dataType.get());
      if (column.type() instanceof ListType) {
        spec.put("singleValueField", false);
      }
      if (!column.nullable()) {
        spec.put("notNull", true);
      }
      boolean isTime = table.timeColumn().map(column.name()::equals).orElse(false);
      Optional<String> format = isTime ? timeFormat(column.type()) : Optional.empty();
      if (format.isPresent()) {
        spec.put("format", format.get());
        spec.put("granularity", "1:MILLISECONDS");
        dateTimes.add(spec);
      } else if (column.type().isNumeric()) {
        metrics.add(spec);
      } else {
        dimensions.add(spec);
      }
    }
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("schemaName", simpleName(table.name()));
    schema.put("dimensionFieldSpecs", dimensions);
    schema.put("metricFieldSpecs", metrics);
    schema.put("dateTimeFieldSpecs", dateTimes);
    return schema;
  }

  /**
   * Pinot's data type for a column of {@code type}, the same names as a query result's {@code
   * columnDataTypes} (ResultRendering); empty for a type queries cannot read.
   */
  static Optional<String> dataType(SqlType type) {
    return switch (type) {
      case ListType list -> dataType(list.elementType());
      case UnsupportedType unsupported -> Optional.empty();
      default -> Optional.of(ResultRendering.typeName(type));
    };
  }

  /**
   * The date-time format of a time column: epoch milliseconds, which is how Pinot stores a {@code
   * TIMESTAMP} and the usual layout of a LONG time column (and the one format every client parses;
   * Grafana's plugin builds its {@code DATETIMECONVERT} buckets from it). A time column of another
   * type is listed as a plain column.
   */
  private static Optional<String> timeFormat(SqlType type) {
    return type == PrimitiveType.TIMESTAMP
            || type == PrimitiveType.TIMESTAMP_TZ
            || type == PrimitiveType.LONG
        ? Optional.of("1:MILLISECONDS:EPOCH")
        : Optional.empty();
  }

  /** Pinot's table config, keyed by table type as Pinot answers {@code GET /tables/{name}}. */
  static Map<String, Object> tableConfig(TableStatus status, Optional<TableSchema> schema) {
    Map<String, Object> segments = new LinkedHashMap<>();
    segments.put("schemaName", simpleName(status.name()));
    schema.flatMap(TableSchema::timeColumn).ifPresent(time -> segments.put("timeColumnName", time));
    segments.put("replication", "1");
    Map<String, Object> config = new LinkedHashMap<>();
    config.put("tableName", typedName(status.name()));
    config.put("tableType", TABLE_TYPE);
    config.put("segmentsConfig", segments);
    config.put("tenants", Map.of("broker", TENANT, "server", TENANT));
    config.put("tableIndexConfig", Map.of());
    config.put("metadata", Map.of());
    config.put("query", Map.of("expressionOverrideMap", Map.of()));
    config.put("ingestionConfig", Map.of("transformConfigs", List.of()));
    return Map.of(TABLE_TYPE, config);
  }

  /**
   * Pinot's table size summary: segments are the data files, rows their records, the size the bytes
   * of the Parquet files (what the table occupies; index bytes are in {@code /status}).
   */
  static Map<String, Object> tableMetadata(TableStatus status) {
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("tableName", typedName(status.name()));
    metadata.put("diskSizeInBytes", status.dataBytes());
    metadata.put("numSegments", status.dataFiles());
    metadata.put("numRows", status.records());
    return metadata;
  }

  /** One broker as Pinot's controller lists it (host, port, instance name). */
  static Map<String, Object> broker(String host, int port) {
    Map<String, Object> broker = new LinkedHashMap<>();
    broker.put("host", host);
    broker.put("port", port);
    broker.put("instanceName", brokerId(host, port));
    return broker;
  }

  /** Pinot's instance name of a broker: {@code Broker_<host>_<port>}. */
  static String brokerId(String host, int port) {
    return "Broker_" + host + "_" + port;
  }

  /** {@code obs.metrics_OFFLINE}: Pinot's name of a table with its type. */
  private static String typedName(String name) {
    return name + "_" + TABLE_TYPE;
  }

  private static String simpleName(String name) {
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
